import type { ResolvedConfig } from '../engine/resolve-config.js';
import type { StopReason } from '../engine/turn.js';
import type { SpanRecord } from '../spans/span-record.js';
import { describeCallError } from './call-error.js';
import { summarizeCalls, times } from './describe.js';
import { compileErrorTokens, type ErrorToken } from './error-tokens.js';
import { buildEvidence, visibleCalls } from './evidence.js';
import type { ApprovalDecision, ApprovalRecord, Evidence, ToolCall } from './evidence-types.js';
import { validateScoreInput } from './score-input.js';
import { approvalDigest, toolDigest, type ToolDigest } from './tool-digest.js';
import { toolNameAsMatched, toolNameMatcher } from './tool-name.js';

/** The four test_run verdicts (docs/verdicts.md, The test_run verdict). */
export type Verdict = 'pass' | 'incomplete' | 'unconfirmed' | 'failed';

/** What decideVerdict reads. */
export interface VerdictInput {
  /** The digest's calls: model calls and flow-step calls, in order. */
  calls: readonly ToolCall[];
  approvals: readonly ApprovalRecord[];
  stop_reason: string | null;
  /** The invoke's own error, when it errored. */
  error?: { type: string; message: string } | null;
  terminal_tool?: string | null;
  tokens: readonly ErrorToken[];
  /** Why the spans are not one whole run (Evidence.incomplete), or null: nothing read from them can confirm it. */
  incomplete?: string | null;
  /** Calls made inside plans and chains: never counted, only named when the terminal tool was one of them. */
  nested?: readonly ToolCall[];
}

/** Errors that cut a run off: they lead the verdict, the calls they canceled being their symptom (docs/verdicts.md). */
const CUTTING_ERRORS: ReadonlySet<string> = new Set(['TIMEOUT', 'RUN_ABORTED']);
/**
 * An external agent's own failure: it comes before the calls it left unanswered (their symptom),
 * but a call that failed before it is still named first, as any tool error is.
 */
const AGENT_ERRORS: ReadonlySet<string> = new Set(['EXTERNAL_AGENT_TIMEOUT', 'EXTERNAL_AGENT_FAILED']);
/** The error of a call an external agent never answered (engine/external/tool-ledger.ts). */
const UNANSWERED = 'unanswered_tool_call';

/** Abnormal model endings (docs/engine-loop.md, Stop reasons): never a normal end, always a failure. */
const MODEL_STOPS: Readonly<Record<string, string>> = {
  max_tokens: 'its answer was cut off at the token limit',
  refusal: 'it refused',
  content_filter: "the provider's content filter withheld its answer",
};

/**
 * The test_run verdict, in the order of docs/verdicts.md, The test_run verdict: a run cut off at
 * its time limit or interrupted -> failed; incomplete spans -> failed when the run's own ending
 * says so, else unconfirmed; any tool error (but a call an external agent that failed left
 * unanswered: its error names the cause),
 * an abnormal model ending (max_tokens, refusal, content_filter) or an errored invoke -> failed; no terminal_tool -> unconfirmed; terminal tool never called -> incomplete;
 * terminal tool returned a result -> pass; stopped at an approval gate -> unconfirmed;
 * otherwise unconfirmed.
 */
export function decideVerdict(input: VerdictInput): { verdict: Verdict; verdict_reason: string } {
  // A run cut off at its time limit or interrupted (Ctrl-C, an aborted signal): that is the
  // cause, not the calls the cut canceled.
  if (input.error && CUTTING_ERRORS.has(input.error.type)) {
    return { verdict: 'failed', verdict_reason: `the invoke errored (${input.error.type}: ${input.error.message})` };
  }
  // Part of a run (or several runs) confirms nothing, and a call failure read from it may be
  // another run's; only the ending the caller gives still fails the run, as a suite row's turn
  // error comes before INCOMPLETE_SPANS.
  if (input.incomplete) return runEnding(input) ?? { verdict: 'unconfirmed', verdict_reason: `the spans are incomplete: ${input.incomplete}` };
  const agentFailed = !!input.error && AGENT_ERRORS.has(input.error.type);
  for (const call of input.calls) {
    // Left unanswered by an agent that failed or ran out of time: the agent's error says why.
    if (agentFailed && call.error_type === UNANSWERED) continue;
    const why = describeCallError(call, input.tokens);
    if (why) return { verdict: 'failed', verdict_reason: `tool ${call.name} failed: ${why}` };
  }
  const ending = runEnding(input);
  if (ending) return ending;
  if (!input.terminal_tool) {
    // A run that stopped at a pause says so first: that is what its caller has to answer.
    const paused = pauseReason(input);
    const unconfirmed = `no terminal_tool was expected, so the run cannot be confirmed; saw ${summarizeCalls(input.calls)}`;
    return { verdict: 'unconfirmed', verdict_reason: paused ? `${paused}; ${unconfirmed}` : unconfirmed };
  }
  const isTerminal = toolNameMatcher(input.terminal_tool);
  const terminal = input.calls.filter((call) => isTerminal(call.raw_name));
  if (terminal.length === 0) {
    const paused = pauseReason(input);
    const never = `terminal tool ${input.terminal_tool} was never called; saw ${summarizeCalls(input.calls)}${nestedHint(input, isTerminal)}`;
    return { verdict: 'incomplete', verdict_reason: paused ? `${paused}; ${never}` : never };
  }
  const returned = terminal.find((call) => call.outcome === 'ok');
  if (returned) {
    return { verdict: 'pass', verdict_reason: `terminal tool ${toolNameAsMatched(input.terminal_tool, [returned])} was called and returned a result` };
  }
  if (terminal.some((call) => call.outcome === 'pending')) {
    return { verdict: 'unconfirmed', verdict_reason: `waiting for approval: terminal tool ${input.terminal_tool} was called but not yet approved` };
  }
  const endings = terminal.map((call) => call.outcome).join(', ');
  // Stopped at another gate (another tool's approval, a human_input) after the terminal tool ended
  // without output (denied): the pause is named, and how the terminal tool ended.
  const paused = pauseReason(input);
  if (paused) {
    // A gate keeps the "waiting for approval" a stop at a gate reads (docs/verdicts.md).
    const said = paused.endsWith('waits for approval') ? `waiting for approval: ${paused.replace(/^paused: /, '')}` : paused;
    return { verdict: 'unconfirmed', verdict_reason: `${said}; terminal tool ${input.terminal_tool} ended ${endings}` };
  }
  return { verdict: 'unconfirmed', verdict_reason: `ran but did not return output: terminal tool ${input.terminal_tool} ended ${endings}` };
}

/** The failed verdict of an abnormal model ending or an errored invoke, else null. */
function runEnding(input: VerdictInput): { verdict: Verdict; verdict_reason: string } | null {
  const early = input.stop_reason !== null && Object.hasOwn(MODEL_STOPS, input.stop_reason) ? MODEL_STOPS[input.stop_reason] : undefined;
  if (early) {
    const detail = input.error ? ` (${input.error.type}: ${input.error.message})` : '';
    return { verdict: 'failed', verdict_reason: `the model stopped early, stop_reason ${input.stop_reason}: ${early}${detail}` };
  }
  if (input.error || input.stop_reason === 'error') {
    const what = input.error ? `${input.error.type}: ${input.error.message}` : 'stop_reason error';
    return { verdict: 'failed', verdict_reason: `the invoke errored (${what})` };
  }
  return null;
}

/** When only a plan or chain called the terminal tool: says so, since the verdict does not count those calls. */
function nestedHint(input: VerdictInput, isTerminal: (name: string) => boolean): string {
  const inside = (input.nested ?? []).filter((call) => isTerminal(call.raw_name)).length;
  if (!inside) return '';
  return `; ${input.terminal_tool} was called ${times(inside)} inside a plan or chain, which the verdict does not count (name the plan or chain tool, or the plan component, instead; a tool_called check with nested: true counts those calls)`;
}

/** `paused: run_command waits for approval` when the run stopped at a gate, else null. */
function pauseReason(input: VerdictInput): string | null {
  const waiting = input.calls.find((call) => call.outcome === 'pending')?.name ?? input.approvals.find((item) => item.decision === 'pending')?.tool;
  if (waiting) return `paused: ${waiting} waits for approval`;
  return input.stop_reason === 'paused' ? 'paused: the run waits for an answer (human input)' : null;
}

/** What the runner passes to scoreTestRun. */
export interface ScoreTestRunInput {
  spans: readonly SpanRecord[];
  /** How the run ended: a typo is a compile error here, as every other typed input's. */
  stop_reason: StopReason;
  error?: { type: string; message: string } | null;
  terminal_tool?: string | null;
  /** Error tokens; default DEFAULT_ERROR_TOKENS. */
  error_tokens?: readonly string[];
  /** Evidence already built from the same spans (saves building it twice). */
  evidence?: Evidence;
}

/** The test_run fields computed from spans (the runner adds output and stop_reason). */
export interface TestRunScore {
  tools: ToolDigest[];
  approvals: Array<{ tool: string; decision: ApprovalDecision }>;
  /** Read back from the root span, not from the engine's memory. */
  resolved: ResolvedConfig | null;
  trace_id: string;
  verdict: Verdict;
  verdict_reason: string;
  /** Why the spans are not a whole run (a scenario then errors, the verdict is not pass), or null. */
  incomplete: string | null;
}

/** Scores one run for test_run: digest, approvals, resolved config and verdict, all from spans. */
export function scoreTestRun(input: ScoreTestRunInput): TestRunScore {
  validateScoreInput(input);
  const evidence = input.evidence ?? buildEvidence({ spans: input.spans });
  const tokens = compileErrorTokens(input.error_tokens);
  const calls = visibleCalls(evidence);
  const decided = decideVerdict({
    calls,
    approvals: evidence.approvals,
    stop_reason: input.stop_reason,
    error: input.error,
    terminal_tool: input.terminal_tool,
    tokens,
    incomplete: evidence.incomplete && `${evidence.incomplete}${severalRuns(evidence.spans)}`,
    nested: evidence.calls.filter((call) => call.nested),
  });
  return {
    tools: toolDigest(calls, tokens),
    approvals: approvalDigest(evidence.approvals),
    resolved: evidence.resolved,
    trace_id: evidence.trace_id ?? '',
    ...decided,
    incomplete: evidence.incomplete,
  };
}

/**
 * Records of several traces (a whole spans.jsonl of a suite) are several runs: the reason says how
 * to score one of them (docs/verdicts.md, The test_run verdict).
 */
function severalRuns(spans: readonly SpanRecord[]): string {
  const traces = new Set(spans.map((span) => span.trace_id)).size;
  return traces > 1 ? `; the records hold ${traces} traces (runs): score one run's, filtering them by trace_id first` : '';
}
