import { fullReportPlace } from './format/all-rows-hint.js';
import { join } from 'node:path';
import type { Report, ScenarioRow } from '../report/report.js';
import { writeFileAtomic } from '../report/write-atomic.js';
import { mdCell, mdText } from './format/md-escape.js';
import { checksCell, clip, isFailing, oneLine, rowLabel, rowReason, STATUS_LABEL, statusLabel, toolsCell, verdictCell } from './format/row-cells.js';
import { runShape } from './format/run-shape.js';
import { summaryLine } from './format/summary-line.js';
import { variantComparison } from './format/variant-comparison.js';
import { passRate, reportTags, variantStats } from './format/variant-stats.js';
import type { Reporter, ReporterContext } from './reporter.js';
import { missingShards, runVerdict } from './format/run-verdict.js';
import { MD_REPORT_FILE, MD_ROW_LIMIT } from './report-files.js';
import { capitalized, strayErrorsNote } from './format/stray-errors-note.js';

export { MD_REPORT_FILE, MD_ROW_LIMIT };
/** At most this many rows in the failures section. */
export const MD_FAILURE_LIMIT = 200;

// Long reasons (a tool's whole output) are cut so one row cannot crowd out the rest.
const REASON_MAX = 1000;
const CHECKS_PER_FAILURE = 20;
/**
 * Bytes the failures and the rows sections may take: GitHub refuses a job summary over 1 MiB, and
 * the caps above alone allow several (200 failures x 20 checks x 1,000 characters).
 */
export const MD_FAILURES_BYTES = 640_000;
export const MD_ROWS_BYTES = 320_000;

/** Writes OUT/report.md: totals, failures and errors first, variant pass rates, then every row. */
export class MdReporter implements Reporter {
  readonly name = 'md';
  readonly file = MD_REPORT_FILE;

  async onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void> {
    await writeFileAtomic(join(ctx.out, MD_REPORT_FILE), renderMarkdown(report, fullReportPlace(ctx.files)));
  }
}

/** The Markdown report as a string; fit for $GITHUB_STEP_SUMMARY. */
export function renderMarkdown(report: Readonly<Report>, fullReport = 'report.json'): string {
  const shape = runShape(report);
  const showRepeat = shape.repeats > 1;
  const out: string[] = [`# agentcheck: ${runVerdict(report)}`, '', `**${mdText(summaryLine(report))}**`, ''];
  out.push(`Started ${mdText(report.started_at)}${report.suite.shard ? `, shard ${report.suite.shard.index}/${report.suite.shard.total}` : ''}.`, '');
  if (report.interrupted) out.push('> The run was interrupted: rows it did not reach are marked NOT RUN.', '');
  if (report.stray_errors) out.push(`> ${mdText(capitalized(strayErrorsNote(report.stray_errors)))}`, '');
  const missing = missingShards(report);
  if (missing.length) out.push(`> Merged without shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: their scenarios are not in this report.`, '');

  out.push(...failuresSection(report.scenarios, showRepeat, fullReport));
  if (shape.variants.length > 1) out.push(...variantsSection(report));
  out.push(...rowsSection(report.scenarios, showRepeat, fullReport));
  return `${out.join('\n').trimEnd()}\n`;
}

function failuresSection(rows: readonly ScenarioRow[], showRepeat: boolean, fullReport: string): string[] {
  const failing = rows.filter(isFailing);
  if (!failing.length) return [];
  const out = [`## Failures and errors (${failing.length})`, ''];
  let bytes = 0;
  let listed = 0;
  for (const row of failing.slice(0, MD_FAILURE_LIMIT)) {
    const item = [`- **${STATUS_LABEL[row.status]}** ${mdText(rowLabel(row, showRepeat))}: ${mdCell(clip(rowReason(row), REASON_MAX))}`];
    if (row.error) item.push(`  - error ${mdText(row.error.type)}`);
    const checks = row.checks.filter((check) => check.status !== 'pass');
    for (const check of checks.slice(0, CHECKS_PER_FAILURE)) {
      item.push(`  - ${check.status} \`${oneLine(check.id).replace(/`/g, "'")}\`: ${mdCell(clip(check.reason, REASON_MAX))}`);
    }
    if (checks.length > CHECKS_PER_FAILURE) item.push(`  - ... ${checks.length - CHECKS_PER_FAILURE} more failed checks`);
    bytes += lineBytes(item);
    if (bytes > MD_FAILURES_BYTES) break;
    out.push(...item);
    listed++;
  }
  if (failing.length > listed) out.push('', `_${failing.length - listed} more failures and errors are in ${fullReport}._`);
  out.push('');
  return out;
}

function variantsSection(report: Readonly<Report>): string[] {
  const stats = variantStats(report);
  const comparison = variantComparison(report);
  // Capitalized like the other Markdown tables, except symbols whose case carries meaning (p, pass^k).
  const head = comparison.head.map((title) => mdCell(/^(p |pass\^)/.test(title) ? title : title[0].toUpperCase() + title.slice(1)));
  const out = ['## Variants', '', `| ${head.join(' | ')} |`, `|${comparison.align.map((a) => (a === 'left' ? '---' : '--:')).join('|')}|`];
  for (const [variant, ...cells] of comparison.rows) out.push(`| ${[mdCell(variant), ...cells].join(' | ')} |`);
  out.push('', ...statsNotes(report));
  const tags = reportTags(report.scenarios);
  if (tags.length) {
    // One row per tag, one column per variant: there are usually more tags than variants.
    out.push('Pass rate by tag:', '', `| Tag | ${stats.map((s) => mdCell(s.variant)).join(' | ')} |`, `|---|${stats.map(() => '--:').join('|')}|`);
    for (const tag of tags) {
      const cells = stats.map((s) => {
        const count = s.tags.get(tag);
        return count ? `${passRate(count)} (${count.passed}/${count.counted})` : '-';
      });
      out.push(`| ${mdCell(tag)} | ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  return out;
}

/** One line saying how the comparison's numbers were computed, so a reader of a CI summary can trust them. */
function statsNotes(report: Readonly<Report>): string[] {
  const note =
    "95% CI: Wilson score interval of the pass rate. p: McNemar's exact test against the reference variant over paired scenario x repeat runs. " +
    'diff: pass-rate difference in percentage points with a 95% scenario bootstrap interval (2,000 resamples). Precision and recall: tools called against the tools the scenario expects.';
  return runShape(report).repeats > 1 ? [`${note} pass^k: the chance that k repeats all pass (tau-bench).`, ''] : [note, ''];
}

function rowsSection(rows: readonly ScenarioRow[], showRepeat: boolean, fullReport: string): string[] {
  if (!rows.length) return ['No scenarios ran.'];
  const head = ['Status', 'Scenario', 'Variant', ...(showRepeat ? ['#'] : []), 'Verdict', 'Checks', 'Tools called', 'Turns', 'ms'];
  const align = ['---', '---', '---', ...(showRepeat ? ['--:'] : []), '---', '--:', '---', '--:', '--:'];
  const out = ['## All rows', '', `| ${head.join(' | ')} |`, `|${align.join('|')}|`];
  let bytes = 0;
  let listed = 0;
  for (const row of rows.slice(0, MD_ROW_LIMIT)) {
    const status = statusLabel(row);
    const cells = [
      status,
      mdCell(row.id),
      mdCell(row.variant),
      ...(showRepeat ? [String(row.repeat)] : []),
      mdCell(verdictCell(row)),
      checksCell(row),
      mdCell(toolsCell(row.test_run?.tools)),
      String(row.turns),
      String(Math.round(row.duration_ms)),
    ];
    const line = `| ${cells.join(' | ')} |`;
    bytes += lineBytes([line]);
    if (bytes > MD_ROWS_BYTES) break;
    out.push(line);
    listed++;
  }
  if (rows.length > listed) out.push('', `_Showing the first ${listed} of ${rows.length} rows; ${fullReport} holds them all._`);
  return out;
}

/** The UTF-8 size of `lines` joined by newlines, with the newline after the last. */
function lineBytes(lines: readonly string[]): number {
  return lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);
}
