import type { Report } from '../report/report.js';
import type { Palette } from './format/ansi.js';
import { allRowsHint } from './format/all-rows-hint.js';
import { isFailing } from './format/row-cells.js';
import { runShape } from './format/run-shape.js';
import { failureLines, summaryLines } from './format/summary-lines.js';
import { wrapText } from './format/wrap-text.js';

/** Terminal width assumed when the output is not a terminal (CI logs, pipes). */
export const DEFAULT_COLUMNS = 100;
/** Narrowest layout of the terminal report; a smaller width is laid out at this one. */
export const MIN_COLUMNS = 40;
/** Past this many rows the table shows only rows that did not pass, and at most this many (failures detailed, too). */
export const TABLE_ROW_LIMIT = 200;

/**
 * The terminal report under `--quiet` (and of `run` without the table reporter): the failures
 * with their calls (at most TABLE_ROW_LIMIT, then a line saying where the rest are), and the
 * summary line. `files`: the report files written (ReporterContext.files).
 */
export function renderQuietReport(report: Readonly<Report>, paint: Palette, columns?: number, files?: readonly string[]): string {
  const width = reportWidth(columns);
  return joinParts([...failuresPart(report, paint, width, files), ...summaryLines(report, paint, width)]);
}

/**
 * The terminal report's failures, with and without the table: at most TABLE_ROW_LIMIT failed or
 * errored runs detailed, then a line saying how many more there are and where.
 */
export function failuresPart(report: Readonly<Report>, paint: Palette, width: number, files?: readonly string[]): string[] {
  const failing = report.scenarios.filter(isFailing);
  const shown = failing.slice(0, TABLE_ROW_LIMIT);
  const lines = failureLines(shown, paint, width, runShape(report).repeats > 1);
  if (failing.length > shown.length) {
    const more = `${failing.length - shown.length} more failed or errored runs not shown (at most ${TABLE_ROW_LIMIT} are; ${allRowsHint(report.scenarios.length, files)})`;
    lines.push('', ...wrapText(more, width, '').map((line) => paint.gray(line)));
  }
  return lines;
}

/** The width the terminal report is laid out at. */
export function reportWidth(columns: number | undefined): number {
  return Math.max(MIN_COLUMNS, columns ?? DEFAULT_COLUMNS);
}

/** Blank lines separate parts; the output starts at its first part. */
export function joinParts(lines: readonly string[]): string {
  return `${lines.join('\n').replace(/^\n+/, '')}\n`;
}
