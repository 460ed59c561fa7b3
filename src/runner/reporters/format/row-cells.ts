import type { RowStatus, ScenarioRow } from '../../report/report.js';
import type { TestRunResult } from '../../test-run.js';
import { clipToWidth, displayWidth } from './display-width.js';
import { printable } from './printable.js';

/** Upper-case status words shown in tables. */
export const STATUS_LABEL: Record<RowStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  error: 'ERROR',
  not_run: 'NOT RUN',
  skipped: 'SKIP',
};

/** The status label with what qualifies a pass: `PASS (expected failure)`, `PASS (no expectation)`. */
export function statusLabel(row: Pick<ScenarioRow, 'status' | 'expect_failure' | 'no_expectation'>): string {
  if (row.status === 'pass' && row.expect_failure) return `${STATUS_LABEL.pass} (expected failure)`;
  if (row.status === 'pass' && row.no_expectation) return `${STATUS_LABEL.pass} (no expectation)`;
  return STATUS_LABEL[row.status];
}

/** The test_run verdict, or '-' when the run never produced one; then each pause and its answer. */
export function verdictCell(row: ScenarioRow): string {
  const verdict = row.test_run?.verdict ?? '-';
  return row.resumes?.length ? `${verdict} (${resumesText(row.resumes)})` : verdict;
}

/** `resumed write_file: approve, write_file: deny`, the pauses a scenario's `resume` answered. */
export function resumesText(resumes: NonNullable<ScenarioRow['resumes']>): string {
  return `resumed ${resumes.map((item) => `${item.tool}: ${item.decision}`).join(', ')}`;
}

/** `passed/total` checks, or '-' for a row without checks. */
export function checksCell(row: ScenarioRow): string {
  if (row.checks.length === 0) return '-';
  const passed = row.checks.filter((check) => check.status === 'pass').length;
  return `${passed}/${row.checks.length}`;
}

/**
 * `lookup_order x1, create_refund x2` in first-call order, cut at `max` columns with a
 * `+N more` tail so one chatty agent cannot widen the whole table.
 */
export function toolsCell(tools: TestRunResult['tools'] | undefined, max = 48): string {
  if (!tools?.length) return '-';
  const parts = tools.map((tool) => `${tool.name} x${tool.called}`);
  const tail = (left: number) => (left ? ` +${left} more` : '');
  // Invariant: `text` (the first `shown` parts) plus the tail for the rest fits in `max`.
  let shown = 1;
  let text = clipToWidth(parts[0], Math.max(8, max - tail(parts.length - 1).length));
  while (shown < parts.length) {
    const next = `${text}, ${parts[shown]}`;
    if (displayWidth(next) + tail(parts.length - shown - 1).length > max) break;
    text = next;
    shown++;
  }
  const cell = `${text}${tail(parts.length - shown)}`;
  // Too narrow for even one name and its tail: the plain list, cut.
  return displayWidth(cell) <= max ? cell : clipToWidth(parts.join(', '), max);
}

/** Printable text with newlines and runs of whitespace collapsed, so a reason fits on one line. */
export function oneLine(text: string): string {
  return printable(text).replace(/\s+/g, ' ').trim();
}

/** Cuts text to `max` characters with an ellipsis (never between the halves of a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Widest scenario id (in columns) a terminal table cell shows; report.json keeps the whole id. */
export const SCENARIO_CELL_MAX = 120;
/** Widest text of any other terminal table cell (variant, tag). */
export const CELL_MAX = 80;

/** User text for one terminal table cell: on one line, printable, at most `max` columns wide. */
export function cellText(text: string, max = CELL_MAX): string {
  // Cut before cleaning too: a 100,000-character id should not be scanned whole for a 120-column cell.
  // Composed (NFC): a base letter and its combining mark are one character to the table's width count too.
  return clipToWidth(oneLine(text.length > max * 4 ? text.slice(0, max * 4) : text).normalize('NFC'), max);
}

/** `id [variant]`, with ` #repeat` inside the brackets when the run has repeats. */
export function rowLabel(row: ScenarioRow, showRepeat: boolean): string {
  return `${row.id} [${row.variant}${showRepeat ? ` #${row.repeat}` : ''}]`;
}

/** Why a row did not pass: its reason, else its error, else its failed checks. */
export function rowReason(row: ScenarioRow): string {
  if (row.reason) return row.reason;
  if (row.error) return `${row.error.type}: ${row.error.message}`;
  const failed = row.checks.filter((check) => check.status !== 'pass').map((check) => `${check.id}: ${check.reason}`);
  if (failed.length) return failed.join('; ');
  return row.test_run ? `verdict ${row.test_run.verdict}: ${row.test_run.verdict_reason}` : '';
}

/** True for fail and error rows: the ones whose reason is shown. */
export function isFailing(row: ScenarioRow): boolean {
  return row.status === 'fail' || row.status === 'error';
}
