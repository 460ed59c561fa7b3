import { describeValue } from '../config/describe-value.js';
import { ConfigError, throwConfigErrors } from '../config/errors.js';
import type { SpanRecord } from '../spans/span-record.js';
import type { CallOutcome } from '../verdicts/evidence-types.js';
import { buildEvidence, visibleCalls } from '../verdicts/index.js';
import { show } from '../verdicts/describe.js';

/** One tool call of a run as matchers and failure messages show it. */
export interface TrajectoryCall {
  /** Normalized name (no `execute_tool ` or `mcp__<server>__` prefix). */
  name: string;
  /** The name as the span gave it (`mcp__fs__write_file`), which a server-prefixed expected name is compared with; absent in calls made elsewhere. */
  raw_name?: string;
  args: unknown;
  /** ok, error, denied or pending. */
  outcome: string;
  /** The error type or refusal, when the call failed; null or left out for none (docs/architecture.md). */
  error?: string | null;
}

// Results stay plain objects (a TestRunResult or ScenarioRow serializes exactly as documented);
// the calls travel beside them, keyed by the object, and go away with it.
const recorded = new WeakMap<object, TrajectoryCall[]>();

/** The calls the test_run digest counts (model and flow-step calls, not plan/chain internals), in order. */
export function trajectoryFromSpans(spans: readonly SpanRecord[]): TrajectoryCall[] {
  return visibleCalls(buildEvidence({ spans: [...spans] })).map((call) => ({
    name: call.name,
    raw_name: call.raw_name,
    args: call.args,
    outcome: call.outcome,
    error: call.error_type,
  }));
}

/** Remembers the calls of the run that produced `result` (a row, a TestRunResult, or both). */
export function recordTrajectory(calls: TrajectoryCall[], ...results: Array<object | null | undefined>): void {
  for (const result of results) if (result) recorded.set(result, calls);
}

/** The recorded calls of a result, or undefined when it did not come from agentcheck/vitest. */
export function recordedTrajectory(result: object): TrajectoryCall[] | undefined {
  return recorded.get(result);
}

// Long arguments (a file's content) are cut so one call cannot bury the rest of the message.
const ARGS_MAX = 200;
const CALLS_MAX = 50;

/**
 * The trajectory block of a failure message: one numbered line per call, with its arguments.
 * Exported for reporters of one's own: what is not a list of calls (or a digest) is a ConfigError
 * at it, never a TypeError or a line of `undefined`s.
 */
export function formatTrajectory(calls: readonly TrajectoryCall[] | undefined, digest?: ReadonlyArray<{ name: string; called: number }>): string {
  throwConfigErrors(trajectoryArgumentProblems(calls, digest));
  if (!calls) {
    if (!digest?.length) return 'Trajectory: no tool calls (arguments not recorded)';
    return `Trajectory (arguments not recorded; first-call order): ${digest.map((tool) => `${tool.name} x${tool.called}`).join(', ')}`;
  }
  if (!calls.length) return 'Trajectory: no tool calls';
  const lines = calls.slice(0, CALLS_MAX).map((call, index) => {
    const outcome = call.outcome === 'ok' ? 'ok' : `${call.outcome}${call.error ? ` (${call.error})` : ''}`;
    return `  ${index + 1}. ${call.name} ${showArgs(call.args)} -> ${outcome}`;
  });
  if (calls.length > CALLS_MAX) lines.push(`  ... ${calls.length - CALLS_MAX} more calls`);
  return [`Trajectory (${calls.length} tool call${calls.length === 1 ? '' : 's'}):`, ...lines].join('\n');
}

function showArgs(args: unknown): string {
  return args === undefined ? '(no arguments)' : show(args, ARGS_MAX);
}

const CALL_SHAPE = 'a tool call {name, args, outcome, error}';
/** A call's outcomes (CallOutcome, docs/verdicts.md). */
const OUTCOMES: readonly CallOutcome[] = ['ok', 'error', 'denied', 'pending'];
const TOOL_SHAPE = 'a tool {name, called}';

/** What is wrong with formatTrajectory's arguments, each at its own path (`calls[0].name`). */
function trajectoryArgumentProblems(calls: unknown, digest: unknown): ConfigError[] {
  const problems: ConfigError[] = [];
  const at = (path: string, expected: string) => problems.push(new ConfigError({ file: 'formatTrajectory', path }, expected));
  if (calls !== undefined && !Array.isArray(calls)) {
    at('calls', `expected a list of tool calls {name, args, outcome, error} (or undefined when arguments were not recorded), got ${describeValue(calls)}`);
  } else {
    (calls ?? []).forEach((call: unknown, index: number) => {
      const path = `calls[${index}]`;
      if (!isRecord(call)) return at(path, `expected ${CALL_SHAPE}, got ${describeValue(call)}`);
      if (typeof call.name !== 'string') at(`${path}.name`, `expected the tool's name (a string), got ${describeValue(call.name)}`);
      if (!OUTCOMES.includes(call.outcome as never)) at(`${path}.outcome`, `expected ${OUTCOMES.join(', ')}, got ${describeValue(call.outcome)}`);
      // No error (undefined) reads as none, as null does.
      if (call.error !== null && call.error !== undefined && typeof call.error !== 'string')
        at(`${path}.error`, `expected the error type (a string) or null, got ${describeValue(call.error)}`);
    });
  }
  if (digest !== undefined && !Array.isArray(digest)) {
    at('digest', `expected a list of tools {name, called} (a test_run's tools), got ${describeValue(digest)}`);
  } else {
    (digest ?? []).forEach((tool: unknown, index: number) => {
      const path = `digest[${index}]`;
      if (!isRecord(tool)) return at(path, `expected ${TOOL_SHAPE}, got ${describeValue(tool)}`);
      if (typeof tool.name !== 'string') at(`${path}.name`, `expected the tool's name (a string), got ${describeValue(tool.name)}`);
      if (typeof tool.called !== 'number') at(`${path}.called`, `expected how many times it was called (a number), got ${describeValue(tool.called)}`);
    });
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
