import type { ScenarioRow } from '../runner/report/report.js';
import type { TestRunResult } from '../runner/test-run.js';
import type { AgentBuild } from '../engine/revision/types.js';
import { callableToolNames, recordedBuild } from './run-build.js';
import { formatTrajectory, recordedTrajectory, type TrajectoryCall } from './trajectory.js';

/** What a matcher reads from a ScenarioRow or a TestRunResult, in one shape. */
export interface MatcherSubject {
  /** `scenario "name" [variant]` or `test_run`. */
  label: string;
  passed: boolean;
  /** How it ended: the row status, or the verdict for a test_run. */
  outcome: string;
  verdict: TestRunResult['verdict'] | null;
  /** Why it is not a plain pass (the row reason, the verdict reason). */
  reason: string;
  /** Failed or errored checks, one line each. */
  problems: string[];
  /** Tools in first-call order with counts (the digest). */
  tools: TestRunResult['tools'];
  /** Calls with arguments, when the result came from agentcheck/vitest's runScenario or testRun. */
  calls: TrajectoryCall[] | undefined;
  /**
   * The tools the run's build can call, as scenario checks accept them (run-build.ts); else those
   * its resolved config lists; empty when any name may be one or none is known.
   */
  buildTools: string[];
  /** The build the run ran, when agentcheck/vitest recorded it: expected argument names are held to its tools. */
  build: AgentBuild | undefined;
}

/** Normalizes what `expect()` received; throws a TypeError naming what was expected otherwise. */
export function subjectOf(received: unknown): MatcherSubject {
  if (isRow(received)) return rowSubject(received);
  if (isTestRunResult(received)) return testRunSubject(received);
  throw new TypeError(`agentcheck matchers expect a ScenarioRow (from runScenario()) or a TestRunResult (from testRun()), got ${describe(received)}`);
}

/** The reason, failed checks and trajectory: the body every failure message ends with. */
export function explain(subject: MatcherSubject): string {
  const lines: string[] = [];
  if (subject.reason) lines.push(`Reason: ${subject.reason}`);
  if (subject.verdict) lines.push(`Verdict: ${subject.verdict}`);
  for (const problem of subject.problems) lines.push(`  - ${problem}`);
  lines.push(formatTrajectory(subject.calls, subject.tools));
  return lines.join('\n');
}

function rowSubject(row: ScenarioRow): MatcherSubject {
  const result = row.test_run;
  // The row reason already lists failed checks (`id: reason`); repeat only what it leaves out.
  const problems = row.checks
    .filter((check) => check.status !== 'pass' && !row.reason.includes(`${check.id}: ${check.reason}`))
    .map((check) => `${check.status} ${check.id}: ${check.reason}`);
  if (row.error) problems.push(`error ${row.error.type}${row.reason.includes(row.error.message) ? '' : `: ${row.error.message}`}`);
  return {
    label: `scenario "${row.name}" [${row.variant}]${row.repeat > 0 ? ` repeat ${row.repeat}` : ''}`,
    passed: row.status === 'pass',
    outcome: row.status,
    verdict: result?.verdict ?? null,
    reason: row.reason || (result && result.verdict !== 'pass' ? result.verdict_reason : ''),
    problems,
    tools: result?.tools ?? [],
    calls: recordedTrajectory(row) ?? (result ? recordedTrajectory(result) : undefined),
    buildTools: buildToolNames(row, result?.resolved),
    build: recordedBuild(row) ?? (result ? recordedBuild(result) : undefined),
  };
}

function testRunSubject(result: TestRunResult): MatcherSubject {
  return {
    label: 'test_run',
    passed: result.verdict === 'pass',
    outcome: result.verdict,
    verdict: result.verdict,
    reason: result.verdict_reason,
    problems: [],
    tools: result.tools,
    calls: recordedTrajectory(result),
    buildTools: buildToolNames(result, result.resolved),
    build: recordedBuild(result),
  };
}

/**
 * What the run's build can call (recorded beside the result) with what its resolved config lists
 * (load_skill, an MCP server's tools); `[]` (unchecked) when the build takes any name.
 */
function buildToolNames(result: object, resolved: unknown): string[] {
  const callable = callableToolNames(result, toolNames(resolved));
  if (callable === undefined) return toolNames(resolved);
  return callable.length ? [...new Set([...callable, ...toolNames(resolved)])] : [];
}

/** The tool names of a resolved config, however it was read back (a report row, a result). */
function toolNames(resolved: unknown): string[] {
  const tools = isObject(resolved) && Array.isArray(resolved.tools) ? resolved.tools : [];
  return tools.flatMap((tool) => (isObject(tool) && typeof tool.name === 'string' ? [tool.name] : []));
}

function isRow(value: unknown): value is ScenarioRow {
  return isObject(value) && typeof value.status === 'string' && typeof value.id === 'string' && Array.isArray(value.checks) && 'test_run' in value;
}

function isTestRunResult(value: unknown): value is TestRunResult {
  return isObject(value) && typeof value.verdict === 'string' && typeof value.verdict_reason === 'string' && Array.isArray(value.tools);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  // A missing `await`: `expect(runScenario(...)).toPass()` gets the promise, not its row.
  if (isThenable(value)) return 'a Promise (a missing await?): the row or result must be awaited, as in expect(await runScenario(...)).toPass()';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).slice(0, 6).join(', ') || '(none)'}`;
  return typeof value;
}

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
