import type { Report, RowStatus } from '../report/report.js';
import { palette, type Palette } from './format/ansi.js';
import { newTable } from './format/cli-table.js';
import { comparisonTables } from './format/comparison-tables.js';
import { cellText, checksCell, clip, isFailing, oneLine, rowLabel, rowReason, SCENARIO_CELL_MAX, STATUS_LABEL, statusLabel, toolsCell, verdictCell } from './format/row-cells.js';
import { runShape } from './format/run-shape.js';
import { summaryLine } from './format/summary-line.js';
import type { Reporter, ReporterContext } from './reporter.js';

/** Past this many rows the table shows only rows that did not pass, and at most this many. */
export const TABLE_ROW_LIMIT = 200;
/** Longest failure reason printed under the table; report.json (and report.md) keep more. */
const REASON_MAX = 1000;

/** Prints the per-scenario table, failure reasons, the summary line and (with variants) a comparison. */
export class TableReporter implements Reporter {
  readonly name = 'table';

  async onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void> {
    // One write: a 10,000-row suite must not pay for thousands of small stream writes.
    ctx.stdout.write(renderTableReport(report, palette(ctx.color)));
  }
}

/** The whole terminal report as one string (exported so tests need no stream). */
export function renderTableReport(report: Readonly<Report>, paint: Palette): string {
  const shape = runShape(report);
  const showRepeat = shape.repeats > 1;
  const rows = report.scenarios;
  const large = rows.length > TABLE_ROW_LIMIT;
  // A large suite shows what needs attention: all rows that did not pass (capped), never the passes.
  const candidates = large ? rows.filter((row) => row.status !== 'pass') : rows;
  const shown = candidates.slice(0, TABLE_ROW_LIMIT);

  const head = ['status', 'scenario', 'variant', ...(showRepeat ? ['#'] : []), 'verdict', 'checks', 'tools called', 'turns', 'ms'];
  const table = newTable(head, paint);
  for (const row of shown) {
    table.push([
      statusCell(row.status, paint, row.status === 'pass' && row.no_expectation ? statusLabel(row) : undefined),
      // Cells are capped: one 100,000-character name must not make every line of the table that wide.
      cellText(row.id, SCENARIO_CELL_MAX),
      cellText(row.variant),
      ...(showRepeat ? [row.repeat] : []),
      cellText(verdictCell(row)),
      checksCell(row),
      toolsCell(row.test_run?.tools),
      row.turns,
      Math.round(row.duration_ms),
    ]);
  }

  const lines: string[] = [];
  if (shown.length) lines.push(table.toString());
  if (large) {
    const omittedPassing = rows.length - candidates.length;
    if (omittedPassing) lines.push(paint.gray(`${omittedPassing} passing rows omitted (${rows.length} rows; see report.json for all)`));
  }
  if (candidates.length > shown.length) {
    lines.push(paint.gray(`${candidates.length - shown.length} more non-passing rows omitted (see report.json or report.md)`));
  }

  const failing = shown.filter(isFailing);
  if (failing.length) {
    lines.push('');
    for (const row of failing) {
      const label = rowLabel({ ...row, id: cellText(row.id, SCENARIO_CELL_MAX), variant: cellText(row.variant) }, showRepeat);
      const reason = clip(oneLine(clip(rowReason(row), REASON_MAX * 4)), REASON_MAX);
      lines.push(`${statusCell(row.status, paint)} ${label}:${reason ? ` ${reason}` : ''}`);
    }
  }
  if (shape.variants.length > 1) lines.push('', comparisonTables(report, paint).trimEnd());
  lines.push('', summaryColour(report, paint)(summaryLine(report)));
  return `${lines.join('\n')}\n`;
}

function statusCell(status: RowStatus, paint: Palette, label = STATUS_LABEL[status]): string {
  // A pass with no expectation tested nothing: shown in yellow, not as a green pass.
  if (status === 'pass') return label === STATUS_LABEL.pass ? paint.green(label) : paint.yellow(label);
  if (status === 'fail') return paint.red(label);
  if (status === 'error') return paint.magenta(label);
  if (status === 'skipped') return paint.yellow(label);
  return paint.gray(label);
}

function summaryColour(report: Readonly<Report>, paint: Palette): (text: string) => string {
  const { failed, errored } = report.summary;
  return (text) => paint.bold(failed || errored ? paint.red(text) : paint.green(text));
}
