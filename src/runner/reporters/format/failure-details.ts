import { ownValue } from '../../../config/own-key.js';
import { agentQuoteStart } from '../../../engine/external/agent-output.js';
import type { ToolResultMessage } from '../../../engine/model/message.js';
import type { ScenarioRow } from '../../report/report.js';
import { agentSpanCalls, isExternalRow } from './agent-span-calls.js';
import type { Palette } from './ansi.js';
import { answeredCalls } from './call-results.js';
import { clipToWidth } from './display-width.js';
import { groupRuns, type FailureGroup } from './failure-groups.js';
import { cellText, clip, oneLine, rowLabel, rowReason, SCENARIO_CELL_MAX, STATUS_LABEL } from './row-cells.js';
import { wrapText } from './wrap-text.js';

/** Most tool calls listed under one failure; report.json keeps the whole transcript. */
export const CALLS_SHOWN = 20;
/** Longest failure reason printed; report.json (and report.md) keep more. */
const REASON_MAX = 1000;

/** Why a run stopped, in words, by stop_reason. */
const STOP_WORDS: Record<string, string> = {
  end_turn: 'the model answered without asking for a tool',
  max_turns: 'the agent reached max_turns',
  paused: 'waiting for an approval nobody gave',
  error: 'the run ended with an error',
  max_tokens: "the model's answer was cut off at the token limit",
  refusal: 'the model refused',
  content_filter: "the provider's content filter withheld the model's answer",
};

/**
 * Why the calls of a run's last answer were not run, by stop_reason, or by error type for the
 * endings whose stop_reason is `error`: an answer that ended abnormally ends the turn and its
 * calls are never run (docs/engine-loop.md, Stop reasons).
 */
const NOT_RUN_WORDS: Record<string, string> = {
  max_tokens: 'the answer was cut off',
  refusal: 'the model refused',
  content_filter: "the provider's content filter withheld the answer",
  MODEL_PAUSE_TURN: 'the provider paused the turn',
  MODEL_UNKNOWN_FINISH_REASON: 'the answer ended with an unknown finish reason',
};

/**
 * One failure group for the terminal, in the spirit of vitest's matcher output: the header with
 * the runs it covers, what was expected (the failing verdict and checks, or the error), the
 * numbered tool calls that actually happened with their arguments and outcome, and why the run
 * stopped. Every line fits `width`.
 */
export function failureDetails(group: FailureGroup, paint: Palette, width: number, showRepeat: boolean): string[] {
  const { row, rows } = group;
  const status = paintStatus(row, paint);
  const id = cellText(row.id, SCENARIO_CELL_MAX);
  const header =
    rows.length > 1
      ? `${id} x${rows.length}: ${cellText(groupRuns(rows, showRepeat), SCENARIO_CELL_MAX * 2)}`
      : rowLabel({ ...row, id, variant: cellText(row.variant) }, showRepeat);
  const lines = wrapText(header, width - STATUS_LABEL[row.status].length - 1, '').map((line, i) => (i === 0 ? `${status} ${line}` : `  ${line}`));
  for (const expected of expectedLines(row)) {
    // Continuation lines line up under the text, after `  ✗ `; so do the lines of a quote an error holds.
    const [first, ...quoted] = expected.split('\n');
    wrapText(first, width, '    ').forEach((line, i) => lines.push(i === 0 ? `  ${paint.red('✗')} ${line.slice(4)}` : line));
    for (const line of quoted) lines.push(...wrapText(line, width, '    '));
  }
  lines.push(...callLines(row, width));
  const stop = stopLine(row);
  if (stop) lines.push(...wrapText(stop, width, '  '));
  return lines;
}

/** The failing verdict and checks, or the error: what the run was expected to do, a problem per item (a quoted stderr keeps its lines). */
function expectedLines(row: ScenarioRow): string[] {
  const clean = (text: string) => clip(oneLine(clip(text, REASON_MAX * 4)), REASON_MAX);
  if (row.status === 'error') return problemLines(row.error ? `${row.error.type}: ${row.error.message}` : rowReason(row));
  const failed = row.checks.filter((check) => check.status !== 'pass');
  const lines: string[] = [];
  // decide() writes a resume mismatch first, then the verdict mismatch, then `; id: reason` per failed check.
  let rest = row.reason;
  if (rest.startsWith('resume: ')) {
    const ends = [rest.indexOf('; verdict '), failed.length ? rest.indexOf(`; ${failed[0].id}: `) : -1].filter((index) => index >= 0);
    const end = ends.length ? Math.min(...ends) : rest.length;
    lines.push(clean(rest.slice(0, end)));
    rest = rest.slice(end + 2);
  }
  if (rest.startsWith('verdict ')) lines.push(clean(failed.length ? rest.split(`; ${failed[0].id}: `)[0] : rest));
  for (const check of failed) lines.push(clean(`${check.id}: ${check.reason}`));
  if (!lines.length) lines.push(clean(rowReason(row)));
  return lines;
}

/**
 * An error's text, a problem per line: problems found together (a scenario's names its MCP
 * servers do not list) are one per line, as the load prints them (ConfigErrors), never run
 * together into one sentence; each line printable and on one line, all of them cut at REASON_MAX.
 * What an agent printed (its stderr tail, a stack trace) is one problem, its lines kept under it.
 */
function problemLines(text: string): string[] {
  const cleaned = (part: string) =>
    part
      .split(/\r\n|[\r\n]/)
      .map(oneLine)
      .filter(Boolean);
  const capped = clip(text, REASON_MAX * 4);
  const start = agentQuoteStart(capped);
  const problems = cleaned(start < 0 ? capped : capped.slice(0, start));
  if (start >= 0) {
    // The quote begins on the line that introduces it: `...; stderr: <its first line>`.
    const quote = cleaned(capped.slice(start));
    const intro = problems.pop() ?? '';
    problems.push([`${intro} ${quote[0] ?? ''}`.trim(), ...quote.slice(1)].join('\n'));
  }
  // NUL separates problems (printable text holds none), so the cut at REASON_MAX keeps them apart.
  return clip(problems.join('\0'), REASON_MAX).split('\0');
}

/** `Tool calls (2):` and `1. name({"a":1}) -> returned ...`, from the row's transcript. */
function callLines(row: ScenarioRow, width: number): string[] {
  if (!row.transcript) {
    const tools = row.test_run?.tools ?? [];
    return tools.length
      ? wrapText(`Tool calls: ${tools.map((tool) => `${oneLine(tool.name)} x${tool.called}`).join(', ')} (no transcript in this report)`, width, '  ')
      : [];
  }
  const calls = answeredCalls(row.transcript);
  const untranscribed = [...flowStepLines(row, width), ...agentSpanLines(row, calls, width)];
  if (!calls.length) return untranscribed.length ? untranscribed : ['  Tool calls: none'];
  const lines = [`  Tool calls (${calls.length}):`];
  // The abnormal answer is the transcript's last message: the loop stops right after adding it.
  const stop = row.test_run?.stop_reason;
  // By own key: a report from another version may hold any stop reason or error type.
  const notRun = ownValue(NOT_RUN_WORDS, stop === 'error' ? (row.error?.type ?? '') : (stop ?? ''));
  const lastAnswer = row.transcript.length - 1;
  const noResult = noResultWords(row);
  calls.slice(0, CALLS_SHOWN).forEach(({ call, result, message }, index) => {
    const unanswered = notRun && message === lastAnswer ? `not run (${notRun})` : noResult;
    const outcome = !result ? unanswered : resultOutcome(result);
    const args = oneLine(clip(JSON.stringify(call.input) ?? '', 400));
    lines.push(clipToWidth(`    ${index + 1}. ${oneLine(call.tool_name)}(${args}) -> ${outcome}`, width));
  });
  if (calls.length > CALLS_SHOWN) lines.push(`    ... ${calls.length - CALLS_SHOWN} more calls (see report.json)`);
  return [...lines, ...untranscribed];
}

/**
 * A call with no result: waiting at a gate when the run paused; else the run ended before the
 * call returned (an error or a timeout in the middle of a round of calls).
 */
function noResultWords(row: ScenarioRow): string {
  if (row.test_run?.stop_reason === 'paused') return 'no result (pending)';
  return row.error ? `no result (the run ended first: ${oneLine(row.error.type)})` : 'no result (the run ended first)';
}

/**
 * A flow's deterministic steps' and plan components' calls, counted as the table counts them: they are not in the
 * transcript, which holds the model's messages only; their spans hold arguments and results.
 */
function flowStepLines(row: ScenarioRow, width: number): string[] {
  const calls = row.flow_calls ?? [];
  if (!calls.length) return [];
  const counts = calls.map((tool) => `${oneLine(tool.name)} x${tool.called}`).join(', ');
  return wrapText(`Flow step calls: ${counts} (deterministic steps and plan components; arguments and results in spans.jsonl)`, width, '  ');
}

/**
 * An external agent's calls known from its own spans only (not in the transcript, which holds
 * what the model bridge saw), counted as the tools column counts them.
 */
function agentSpanLines(row: ScenarioRow, transcriptCalls: ReturnType<typeof answeredCalls>, width: number): string[] {
  const calls = agentSpanCalls(row, transcriptCalls);
  if (!calls.length) return [];
  const counts = calls.map((tool) => `${oneLine(tool.name)} x${tool.called}`).join(', ');
  return wrapText(`Tool calls from the agent's own spans: ${counts} (past the model bridge; arguments and results in spans.jsonl)`, width, '  ');
}

/** `returned ...`, `error ...`, or `denied (...)`: a denial is no tool error (docs/spans.md). */
function resultOutcome(result: ToolResultMessage): string {
  const content = oneLine(clip(result.content, 400));
  if (result.denied) return `denied (${content})`;
  return `${result.is_error ? 'error' : 'returned'} ${content}`;
}

/** `Stopped: end_turn (the model answered without asking for a tool)`. */
function stopLine(row: ScenarioRow): string | null {
  const reason = row.test_run?.stop_reason;
  if (!reason) return null;
  const words = flowStopWords(row, reason) ?? externalStopWords(row, reason) ?? ownValue(STOP_WORDS, reason);
  return `Stopped: ${reason}${words ? ` (${words})` : ''}`;
}

/**
 * A flow's ending in words where the model's do not fit, else undefined: a flow ends with end_turn
 * when it reaches `end`, whichever component ran last, and may pause at a human_input component.
 */
function flowStopWords(row: ScenarioRow, reason: string): string | undefined {
  if (!row.flow_calls) return undefined;
  if (reason === 'end_turn') return 'the flow reached end';
  const approvalPending = row.test_run?.approvals.some((approval) => approval.decision === 'pending');
  if (reason === 'paused' && !approvalPending) return 'waiting for a human_input answer nobody gave';
  return undefined;
}

/**
 * An external agent's ending where the model's words do not fit, else undefined: its turn ends
 * with end_turn when the agent answered, whatever its model last said, and its tools may have run
 * past the model bridge (docs/external-agents.md), so only the answer is known.
 */
function externalStopWords(row: ScenarioRow, reason: string): string | undefined {
  return reason === 'end_turn' && isExternalRow(row) ? 'the agent answered' : undefined;
}

function paintStatus(row: ScenarioRow, paint: Palette): string {
  return row.status === 'error' ? paint.magenta(STATUS_LABEL.error) : paint.red(STATUS_LABEL[row.status]);
}
