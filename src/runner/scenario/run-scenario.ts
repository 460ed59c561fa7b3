import { describeError } from '../../engine/loop/agent-loop.js';
import { RESUME_MISMATCH } from '../report/resume-mismatch.js';
import type { McpServerPool } from '../../engine/mcp/mcp-server-pool.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import type { SkillOptions } from '../../engine/skills-delivery.js';
import { mergeSkills } from './load-skill-offered.js';
import type { Turn } from '../../engine/turn.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { runChecksWithCustom, type ToolCall } from '../../verdicts/index.js';
import { allListedHooks, listedNamesCheck, type ListedNamesCheck } from './listed-names-check.js';
import type { Locator } from '../../config/assert-format.js';
import { inDatasetRow } from './expand-dataset.js';
import { loadCustomChecks } from '../checks/load-custom-checks.js';
import { CASSETTES_FLAG } from '../cassettes/cassette-mode-setting.js';
import { cassettePath } from '../cassettes/cassette-path.js';
import type { CassetteRun } from '../cassettes/cassette-session.js';
import type { CassetteSettings } from '../cassettes/cassette-settings.js';
import type { ScenarioRow } from '../report/report.js';
import { describeUnmatched } from '../mocks/unmatched-requests.js';
import { countedToolName, expectedTools, isExpectedTool, nestedExpectedTools } from '../stats/expected-tools.js';
import { executeTestRun, type TestRunRecord } from '../test-run.js';
import { madeNoChoices } from './made-no-choices.js';
import type { Deadline } from '../suite/timeouts.js';
import type { Scenario } from './scenario.js';
import { runRedactor } from '../secrets/run-secrets.js';

export interface RunScenarioOptions {
  variant: string;
  /** The scenario's revision with the variant's delta applied. */
  revision: DeltaRevision;
  repeat: number;
  skills?: SkillOptions;
  /** An interrupt: aborting it stops the run. */
  signal?: AbortSignal;
  /**
   * The run's time limit: past it the engine is aborted and the row is `error` TIMEOUT, keeping
   * what ran (transcript, usage, tool calls, spans). The caller disposes it.
   */
  deadline?: Deadline;
  /** MCP servers shared across the suite's runs. */
  mcpServers?: McpServerPool;
  env?: Readonly<Record<string, string | undefined>>;
  /** Record / replay the run's HTTP traffic in `<dir>/<scenario slug>/<variant>/<repeat>.json`. */
  cassettes?: CassetteSettings;
  /** Receives the run's spans (the suite writes them to spans.jsonl). */
  onSpans?: (spans: SpanRecord[]) => void;
  /** Told what the run's MCP servers listed, before the scenario's names are held to it (agentcheck/vitest records it). */
  onToolsListed?: ListedNamesCheck;
}

/**
 * Runs one scenario x variant x repeat and scores it. Never throws: whatever happens, the
 * scenario gets its row (docs/verdicts.md: pass, fail, or error when the run could not happen).
 */
export async function runScenario(scenario: Scenario, options: RunScenarioOptions): Promise<ScenarioRow> {
  const started = performance.now();
  const row: ScenarioRow = {
    id: scenario.id,
    name: scenario.name,
    file: scenario.file,
    variant: options.variant,
    repeat: options.repeat,
    tags: scenario.tags,
    status: 'error',
    reason: '',
    test_run: null,
    checks: [],
    turns: 0,
    duration_ms: 0,
    error: null,
    expected_tools: expectedTools(scenario.expect),
  };
  if (scenario.expect_failure) row.expect_failure = scenario.expect_failure;
  if (hasNoExpectation(scenario)) row.no_expectation = true;
  let record: TestRunRecord | undefined;
  try {
    // Loaded before the run by `agentcheck run` and runSuite; a scenario run on its own loads them
    // here, still before the run: a module or params refused must leave no tool's side effect behind.
    if (scenario.customChecks?.some((ref) => !ref.run)) await loadCustomChecks([scenario]);
    record = await executeTestRun(
      {
        agent: options.revision,
        inputs: scenario.inputs,
        expectations: { terminal_tool: scenario.expect.terminal_tool, error_tokens: scenario.expect.error_tokens },
        approvals: scenario.approvals,
        // A custom check may read the workspace's files as a `file` check does (docs/custom-checks.md).
        workspaceEvidence: scenario.expect.checks.some((check) => 'file' in check || 'custom' in check),
        mocks: scenario.mocks,
        workspace: scenario.workspace,
        script: scenario.script,
        skills: mergeSkills(options.skills, scenario.skills),
        env: options.env,
        signal: options.signal,
        mcpServers: options.mcpServers,
        cassette: cassetteRun(scenario, options),
      },
      options.revision,
      {
        answers: scenario.resume?.map((item) => item.decision),
        approvalsHeldTo: scenario.approvalsHeldTo,
        approvalsAt: scenario.namesHeldToListedTools && approvalsLocator(scenario),
        onToolsListed: allListedHooks(
          options.onToolsListed,
          scenario.namesHeldToListedTools &&
            listedNamesCheck(scenario.namesHeldToListedTools.names, scenario.namesHeldToListedTools.builds, rowLocator(scenario)),
        ),
        judges: scenario.judges,
        deadline: options.deadline,
        cassetteSetting: CASSETTES_FLAG,
      },
    );
    if (scenario.resume) row.resumes = record.resumes.map(({ tool, decision }) => ({ tool, decision }));
    options.onSpans?.(record.spans);
    // No run_id: nothing can resume a suite row's run (no checkpoint is kept; a scenario answers
    // its gates with `resume:`), so an id `agentcheck resume` refuses is left out (docs/report-format.md).
    row.test_run = { ...record.result };
    delete row.test_run.run_id;
    row.usage = { ...record.turn.usage };
    const evidence = record.evidence;
    // From the evidence, not the spans: a judge's grading call is not one of the agent's turns.
    row.turns = evidence.turns;
    const custom = new Map((scenario.customChecks ?? []).flatMap((ref) => (ref.run ? [[ref.index, ref.run] as const] : [])));
    // Custom checks run their synchronous part here: a CPU-bound one holds the event loop, and
    // the deadline charges that time to this run only.
    const checking = () => runChecksWithCustom(scenario.expect.checks, evidence, custom);
    // A run that errored before anything ran (a server that did not start, a name its servers do
    // not list) has nothing to judge: its checks would pass vacuously (docs/report-format.md).
    const nothingRan = record.turn.stop_reason === 'error' && evidence.turns === 0 && evidence.calls.length === 0;
    if (!nothingRan) row.checks = await (options.deadline ? options.deadline.hold(checking) : checking());
    if (madeNoChoices(record.turn.stop_reason, evidence)) row.no_choices = true;
    const nestedCalls = countNestedCalls(evidence.calls, nestedExpectedTools(scenario.expect), row.expected_tools ?? []);
    if (nestedCalls) row.nested_calls = nestedCalls;
    if (evidence.flow_state) row.flow_calls = flowStepCalls(evidence.calls);
    decide(row, scenario, record, evidence.incomplete);
    // The turn's own messages: the test_run already scrubbed them, or the suite's report redactor will.
    row.transcript = record.turn.messages;
  } catch (error) {
    row.status = 'error';
    row.error = describeError(error);
    row.reason = row.error.message;
  } finally {
    // A run past its limit is not a result, whatever it ended with (a pass, when the script
    // ignores a canceled tool, or the error the abort caused): it is TIMEOUT, its record kept.
    const deadline = options.deadline;
    if (deadline?.overdue) setError(row, 'TIMEOUT', timeoutMessage(deadline, row, record?.turn));
    await record?.workspace.dispose().catch(() => undefined);
    row.duration_ms = Math.round((performance.now() - started) * 100) / 100;
  }
  return row;
}

/** pass / fail / error from the verdict, the checks and expect_failure. */
function decide(row: ScenarioRow, scenario: Scenario, record: TestRunRecord, incomplete: string | null): void {
  const { result, turn } = record;
  // A cassette failure comes first: the model or tool error it causes is only its symptom.
  const cassetteFailure = record.cassette?.failure;
  if (cassetteFailure) return setError(row, cassetteFailure.type, cassetteFailure.message);
  // So does a request no mock answered (a model call's miss ends the turn with a model error).
  if (record.unmatched.length) {
    return setError(row, 'UNMATCHED_REQUEST', `${describeUnmatched(record.unmatched)} (scenario mocks.http)`);
  }
  if (turn.error) return setError(row, turn.error.type, turn.error.message);
  if (incomplete) return setError(row, 'INCOMPLETE_SPANS', `the run's spans are incomplete: ${incomplete}`);
  const erroredCheck = row.checks.find((check) => check.status === 'error');
  if (erroredCheck) return setError(row, 'CHECK_ERROR', `${erroredCheck.id}: ${erroredCheck.reason}`);

  const failures: string[] = [];
  const expected = scenario.expect.verdict ?? (scenario.expect.terminal_tool ? 'pass' : undefined);
  if (expected && result.verdict !== expected) {
    failures.push(`verdict ${result.verdict}, expected ${expected}: ${result.verdict_reason}`);
  }
  for (const check of row.checks) if (check.status === 'fail') failures.push(`${check.id}: ${check.reason}`);
  // A resume list that does not fit the run is a broken test, never the defect an expected
  // failure demonstrates: a fail row under expect_failure too (docs/formats.md, Pause and resume).
  const resumeProblem = unmatchedResume(scenario, record);
  if (resumeProblem) {
    row.status = 'fail';
    row.reason = failures.length ? `${resumeProblem}; ${failures.join('; ')}` : resumeProblem;
    return;
  }

  if (scenario.expect_failure) {
    row.status = failures.length ? 'pass' : 'fail';
    row.reason = failures.length
      ? `expected failure (${scenario.expect_failure}): ${failures[0]}`
      : `unexpected pass: expected a failure (${scenario.expect_failure}) but every check passed`;
    return;
  }
  row.status = failures.length ? 'fail' : 'pass';
  row.reason = failures.join('; ');
  if (row.no_expectation) {
    row.reason = `no expectation: the scenario sets no terminal_tool, verdict or checks, so its pass only says the run happened (verdict ${result.verdict}: ${result.verdict_reason})`;
  }
}

/**
 * Nothing to hold the run against: no terminal_tool, verdict, checks, expect_failure or resume
 * (answers to pauses are an expectation: a pause left unanswered or an answer left over fails).
 */
function hasNoExpectation(scenario: Scenario): boolean {
  const { terminal_tool, verdict, checks } = scenario.expect;
  return terminal_tool === undefined && verdict === undefined && checks.length === 0 && !scenario.expect_failure && !scenario.resume?.length;
}

/**
 * A scenario's `resume` must answer every pause, and every answer must meet a pause: a pause left
 * waiting, or an answer left over, means the run did not go the way the scenario says.
 */
function unmatchedResume(scenario: Scenario, record: TestRunRecord): string | null {
  const given = scenario.resume;
  if (!given) return null;
  const used = record.resumes.length;
  const pending = record.turn.pending_interaction;
  if (record.turn.stop_reason === 'paused' && pending) {
    return `${RESUME_MISMATCH}pause ${used + 1} (tool ${pending.tool}) was left unanswered; resume has ${given.length} entr${given.length === 1 ? 'y' : 'ies'}, all used`;
  }
  if (used < given.length) {
    const unused = given
      .slice(used)
      .map((item, index) => `resume[${used + index}] (${item.decision})`)
      .join(', ');
    return `${RESUME_MISMATCH}${unused} unused: the run ended (stop_reason ${record.turn.stop_reason}) after ${used} pause${used === 1 ? '' : 's'}`;
  }
  return null;
}

/**
 * Nested calls of the given tools (matched as checks match them), by the name the statistics count
 * them under among the `expected` tools (the full `mcp__<server>__<tool>` where a server-prefixed
 * name expects that tool part, else the name without the server); undefined when there are none.
 */
function countNestedCalls(calls: readonly ToolCall[], names: readonly string[], expected: readonly string[]): Record<string, number> | undefined {
  if (names.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const call of calls) {
    if (!call.nested || !isExpectedTool(names, call.raw_name)) continue;
    const name = countedToolName(expected, call.raw_name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts.size ? Object.fromEntries(counts) : undefined;
}

/** The calls a flow's deterministic steps made (not the model's: those are in the transcript), by tool in first-call order. */
function flowStepCalls(calls: readonly ToolCall[]): Array<{ name: string; called: number }> {
  const counts = new Map<string, number>();
  for (const call of calls) if (call.source === 'flow' && !call.nested) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return [...counts].map(([name, called]) => ({ name, called }));
}

/** The run's cassette, unless cassettes are off. */
function cassetteRun(scenario: Scenario, options: RunScenarioOptions): CassetteRun | undefined {
  const settings = options.cassettes;
  if (!settings || settings.mode === 'off') return undefined;
  // Named as reports show the run (docs/cassettes.md, Files): a scenario name holding a secret's
  // value must not put it in a folder name, which users commit.
  const shown = runRedactor(options.env ?? process.env, [options.revision.build]);
  const [id, variant] = [shown.text(scenario.id), shown.text(options.variant)];
  return { mode: settings.mode, path: cassettePath(settings.dir, id, variant, options.repeat), scenario: id, variant, repeat: options.repeat };
}

function setError(row: ScenarioRow, type: string, message: string): void {
  row.status = 'error';
  row.error = { type, message };
  row.reason = message;
}

/**
 * What a TIMEOUT row says: the run was cut (its transcript so far kept), or the agent's run had
 * ended and the limit came while its checks or judges ran (test_run then keeps that run's result).
 */
function timeoutMessage(deadline: Deadline, row: ScenarioRow, turn: Turn | undefined): string {
  if (!row.transcript) return deadline.limitReason;
  if (turn && turn.error?.type !== 'TIMEOUT') {
    return `${deadline.limitReason} while its checks ran; the agent's run had ended (stop_reason ${turn.stop_reason}) and its record is kept`;
  }
  return deadline.message;
}

/** Where the scenario's load placed its problems (file:line:col, its path), naming its dataset row if it has one. */
function rowLocator(scenario: Scenario): Locator {
  const locate = scenario.namesHeldToListedTools!.locate;
  const row = scenario.datasetRow;
  return (path, expected, atKey) => (row === undefined ? locate(path, expected, atKey) : inDatasetRow(locate(path, expected, atKey), row));
}

/** Where the scenario's `approvals` are written, for a problem found when its servers list their tools. */
function approvalsLocator(scenario: Scenario): Locator {
  const locate = rowLocator(scenario);
  return (path, expected, atKey) => locate(['approvals', ...path], expected, atKey);
}
