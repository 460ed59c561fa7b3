// The parts of the terminal report that `--quiet` (and `run` without the table reporter) prints
// too, apart from the table itself so those runs do not load the table's modules.
import type { Report, ScenarioRow } from '../../report/report.js';
import type { Palette } from './ansi.js';
import { failureDetails } from './failure-details.js';
import { groupFailures } from './failure-groups.js';
import { summaryLine } from './summary-line.js';
import { wrapText } from './wrap-text.js';

/** Each failure of `rows` with its calls, a blank line before each group (the terminal report's failure part). */
export function failureLines(rows: readonly ScenarioRow[], paint: Palette, width: number, showRepeat: boolean): string[] {
  const lines: string[] = [];
  for (const group of groupFailures(rows)) lines.push('', ...failureDetails(group, paint, width, showRepeat));
  return lines;
}

/** The summary line, wrapped to `width`, green when nothing failed or errored (a blank line first). */
export function summaryLines(report: Readonly<Report>, paint: Palette, width: number): string[] {
  const { failed, errored } = report.summary;
  const colour = (text: string) => paint.bold(failed || errored || report.stray_errors ? paint.red(text) : paint.green(text));
  return ['', ...wrapText(summaryLine(report), width, '').map((line) => colour(line))];
}
