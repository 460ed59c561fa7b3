import type { Report, RowStatus, ScenarioRow } from '../report/report.js';
import { palette, type Palette } from './format/ansi.js';
import { comparisonTables } from './format/comparison-tables.js';
import { fittedTable } from './format/fitted-table.js';
import { cellText, checksCell, SCENARIO_CELL_MAX, STATUS_LABEL, statusLabel, toolsCell, verdictCell } from './format/row-cells.js';
import { allRowsHint } from './format/all-rows-hint.js';
import { runShape } from './format/run-shape.js';
import { summaryLines } from './format/summary-lines.js';
import { wrapText } from './format/wrap-text.js';
import { failuresPart, joinParts, renderQuietReport, reportWidth, TABLE_ROW_LIMIT } from './quiet-report.js';
import type { Reporter, ReporterContext } from './reporter.js';

/** Prints the per-scenario table, each failure with its calls, the summary line and (with variants) a comparison. */
export class TableReporter implements Reporter {
  readonly name = 'table';
  // Passing rows give only counts and table cells; the details shown are of rows that did not pass.
  readonly rowAccess = 'compact';

  async onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void> {
    // One write: a 10,000-row suite must not pay for thousands of small stream writes.
    ctx.stdout.write(renderTableReport(report, palette(ctx.color), { columns: ctx.columns, quiet: ctx.quiet, files: ctx.files }));
  }
}

/** How the terminal report is laid out. */
export interface TableLayout {
  /** Characters per line; default DEFAULT_COLUMNS. */
  columns?: number;
  /** Failures and the summary only: no table, no variant comparison. */
  quiet?: boolean;
  /** The report files written (ReporterContext.files), named where rows are left out. */
  files?: readonly string[];
}

/** The whole terminal report as one string (exported so tests need no stream). */
export function renderTableReport(report: Readonly<Report>, paint: Palette, layout: TableLayout = {}): string {
  if (layout.quiet) return renderQuietReport(report, paint, layout.columns, layout.files);
  const width = reportWidth(layout.columns);
  const shape = runShape(report);
  const showRepeat = shape.repeats > 1;
  const rows = report.scenarios;
  const large = rows.length > TABLE_ROW_LIMIT;
  // A large suite shows what needs attention: all rows that did not pass (capped), never the passes.
  const candidates = large ? rows.filter((row) => row.status !== 'pass') : rows;
  const shown = candidates.slice(0, TABLE_ROW_LIMIT);

  const lines: string[] = [];
  if (shown.length) lines.push(scenarioTable(shown, paint, showRepeat, width));
  // Said even when no row is left to show (a large suite that all passed): the line is the table then.
  const hint = allRowsHint(rows.length, layout.files);
  if (large) {
    const omittedPassing = rows.length - candidates.length;
    const why = `${rows.length} rows: past ${TABLE_ROW_LIMIT} the table shows only the rows that did not pass`;
    if (omittedPassing) lines.push(...grayLines(`${omittedPassing} passing rows omitted (${why}; ${hint})`, width, paint));
  }
  if (candidates.length > shown.length) {
    lines.push(
      ...grayLines(`${candidates.length - shown.length} more non-passing rows omitted (the table shows at most ${TABLE_ROW_LIMIT}; ${hint})`, width, paint),
    );
  }
  lines.push(...failuresPart(report, paint, width, layout.files));
  if (shape.variants.length > 1) lines.push('', comparisonTables(report, paint, width).trimEnd());
  lines.push(...summaryLines(report, paint, width));
  return joinParts(lines);
}

const STATUS_COLUMN = 0;
const SCENARIO_COLUMN = 1;
const VARIANT_COLUMN = 2;

/**
 * One row per run, within `width`: the tools column is cut first, then long scenario ids wrap;
 * on a very narrow terminal turns, ms, checks, the tools and the verdict go (a note says so).
 */
function scenarioTable(rows: readonly ScenarioRow[], paint: Palette, showRepeat: boolean, width: number): string {
  const head = ['status', 'scenario', 'variant', ...(showRepeat ? ['#'] : []), 'verdict', 'checks', 'tools called', 'turns', 'ms'];
  const tools = head.indexOf('tools called');
  const verdict = head.indexOf('verdict');
  const cells = rows.map((row) => [
    statusLabel(row),
    // Cells are capped: one 100,000-character name must not make every line of the table that wide.
    cellText(row.id, SCENARIO_CELL_MAX),
    cellText(row.variant),
    ...(showRepeat ? [String(row.repeat)] : []),
    cellText(verdictCell(row)),
    checksCell(row),
    toolsCell(row.test_run?.tools),
    String(row.turns),
    String(Math.round(row.duration_ms)),
  ]);
  return fittedTable({ head, rows: cells }, paint, width, {
    // The scenario id matters most: the tools list and long verdicts give way first, then long
    // ids and variants wrap; the id keeps 24 characters a line until nothing else can give.
    steps: [
      [tools, 26],
      [verdict, 24],
      [STATUS_COLUMN, 14],
      [SCENARIO_COLUMN, 40],
      [VARIANT_COLUMN, 12],
      [tools, 12],
      [verdict, 14],
      [SCENARIO_COLUMN, 24],
      [SCENARIO_COLUMN, 12],
      [tools, 8],
      [VARIANT_COLUMN, 9],
      [SCENARIO_COLUMN, 10],
      [SCENARIO_COLUMN, 8],
      [VARIANT_COLUMN, 7],
    ],
    breakWords: [SCENARIO_COLUMN, VARIANT_COLUMN],
    dropOrder: ['turns', 'ms', 'checks', 'tools called', 'verdict'].map((title) => head.indexOf(title)),
    cell: (index, col, text, cut) => {
      // `PASS (expected failure)` wraps after PASS rather than taking a quarter of the line.
      if (col === STATUS_COLUMN) return statusCell(rows[index].status, paint, text);
      // The tools column is re-cut to its width so `+N more` stays visible.
      if (col === tools && cut) return toolsCell(rows[index].test_run?.tools, cut - 2);
      return text;
    },
  });
}

function grayLines(text: string, width: number, paint: Palette): string[] {
  return wrapText(text, width, '').map((line) => paint.gray(line));
}

function statusCell(status: RowStatus, paint: Palette, label = STATUS_LABEL[status]): string {
  // A pass with no expectation tested nothing: shown in yellow, not as a green pass.
  if (status === 'pass') return label === STATUS_LABEL.pass ? paint.green(label) : paint.yellow(label);
  if (status === 'fail') return paint.red(label);
  if (status === 'error') return paint.magenta(label);
  if (status === 'skipped') return paint.yellow(label);
  return paint.gray(label);
}
