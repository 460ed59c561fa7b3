import { fullReportPlace } from './format/all-rows-hint.js';
import { join } from 'node:path';
import type { Report } from '../report/report.js';
import { writeFileAtomic } from '../report/write-atomic.js';
import { statsOf } from '../stats/compute-stats.js';
import { STATS_SCHEMA } from '../stats/stats-types.js';
import { runShape } from './format/run-shape.js';
import { section } from './html/cells.js';
import { confusionHeatmap } from './html/confusion-heatmap.js';
import { failuresSection } from './html/failures-section.js';
import { matrixSection } from './html/matrix-section.js';
import { htmlPage } from './html/page.js';
import { pairedSection } from './html/paired-section.js';
import { passRatesSection } from './html/pass-rates-section.js';
import { rowsSection } from './html/rows-section.js';
import { summarySection } from './html/summary-section.js';
import { runVerdict } from './format/run-verdict.js';
import { readTimelineSpans, type TimelineSpans } from './html/timeline-spans.js';
import { planTimelines, timelinesSection, type TimelinePlan } from './html/timelines-section.js';
import { toolSelectionSection } from './html/tool-selection-section.js';
import type { Reporter, ReporterContext } from './reporter.js';

/** The HTML report's name inside the output folder. */
export const HTML_REPORT_FILE = 'report.html';
/** The spans file `agentcheck run` writes beside the report; timelines come from it. */
export const SPANS_FILE = 'spans.jsonl';

/**
 * Writes OUT/report.html: one self-contained page (inline CSS, SVG and a little JS, no network)
 * with the summary, the scenario x variant matrix, pass rates with intervals, tool selection, the confusion heat map, paired
 * comparisons, tool-call timelines from OUT/spans.jsonl, failures first and then every run.
 */
export class HtmlReporter implements Reporter {
  readonly name = 'html';
  readonly file = HTML_REPORT_FILE;

  async onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void> {
    const plan = planTimelines(report);
    const spans = await readTimelineSpans(join(ctx.out, SPANS_FILE), plan.traceIds);
    await writeFileAtomic(join(ctx.out, HTML_REPORT_FILE), renderHtml(report, spans, plan, fullReportPlace(ctx.files)));
  }
}

/**
 * The page as a string. `spans` null means there is no spans.jsonl (the timelines section says
 * so); `plan` defaults to planTimelines(report) and is a parameter only so the reporter can read
 * just the traces it will draw.
 */
export function renderHtml(
  report: Readonly<Report>,
  spans: TimelineSpans | null = null,
  plan: TimelinePlan = planTimelines(report),
  fullReport = 'report.json',
): string {
  const shape = runShape(report);
  const showRepeat = shape.repeats > 1;
  // Reports from before the statistics existed get them computed from their rows, as the
  // Markdown and terminal reports do; the page says so, since those numbers are not in the file.
  const stats = statsOf(report);
  const statsNote = report.stats?.schema === STATS_SCHEMA ? null : 'report.json has no stats block: the statistics on this page were computed from its rows.';
  const variants = shape.variants.filter((name) => Object.hasOwn(stats.variants, name));

  // The scenario x variant matrix first (where each run went, one click from its transcript),
  // then the aggregates (a few lines each), then the rows: failures with their reasons, the
  // timelines that show how those runs went, and every run last.
  const sections: Array<[id: string, label: string, html: string]> = [];
  if (report.scenarios.length) sections.push(['matrix', 'Matrix', matrixSection(report, stats, shape.variants, showRepeat, fullReport)]);
  if (variants.length) {
    sections.push(['pass-rates', 'Pass rates', passRatesSection(stats, variants, shape.repeats)]);
    sections.push(['tool-selection', 'Tool selection', toolSelectionSection(stats, variants)]);
    const heatmaps = variants.map((name) => confusionHeatmap(name, stats.variants[name].tool_selection, fullReport)).join('\n');
    const confusionNote =
      '<p class="note">Rows: tools a scenario expects that a run never called (missed). Columns: the unexpected tools those runs called instead; a cell counts runs.</p>';
    sections.push(['confusion', 'Confusion', section('confusion', 'Per-tool confusion', `${confusionNote}${heatmaps}`)]);
  }
  if (stats.paired.length) sections.push(['paired', 'Paired', pairedSection(stats.paired)]);
  sections.push(['failures', 'Failures', failuresSection(report.scenarios, showRepeat, fullReport)]);
  sections.push(['timelines', 'Timelines', timelinesSection(plan, spans, fullReport)]);
  sections.push(['rows', 'All runs', rowsSection(report.scenarios, showRepeat, fullReport)]);

  const body = `${summarySection(report, statsNote)}\n${sections.map(([, , html]) => html).join('\n')}`;
  return htmlPage(`agentcheck: ${runVerdict(report)}`, [['summary', 'Summary'], ...sections.map(([id, label]): [string, string] => [id, label])], body);
}
