import type { Report } from '../../report/report.js';
import { formatSeconds, summaryLine } from '../format/summary-line.js';
import { dataAttrs, esc } from './escape.js';
import { runVerdict } from '../format/run-verdict.js';
import { capitalized, strayErrorsNote } from '../format/stray-errors-note.js';

/** The title, the summary line, the totals (each a `data-stat` box) and the suite's settings. */
export function summarySection(report: Readonly<Report>, statsNote: string | null): string {
  const verdict = runVerdict(report);
  const { summary, suite } = report;
  const totals: Array<[key: keyof typeof summary, label: string]> = [
    ['total', 'runs'],
    ['passed', 'passed'],
    ['failed', 'failed'],
    ['errored', 'errored'],
    ['not_run', 'not run'],
    ['skipped', 'skipped'],
  ];
  // A box per count, zeros included: a script reading the page finds every count (docs/report-format.md).
  const boxes = totals
    .map(([key, label]) => `<div${dataAttrs({ stat: key, value: summary[key] })}><dt>${esc(label)}</dt><dd>${summary[key]}</dd></div>`)
    .join('');
  const meta: Array<[string, string]> = [
    ['started', report.started_at],
    ['duration', formatSeconds(report.duration_ms)],
    ['paths', suite.paths.join(', ') || '(config scenarios)'],
    ['config', suite.config ?? 'none'],
    ['variants', suite.variants.join(', ')],
    ['repeats', String(suite.repeat)],
    ['concurrency', String(suite.concurrency)],
  ];
  if (suite.shard) meta.push(['shard', `${suite.shard.index}/${suite.shard.total}`]);
  if (suite.grep) meta.push(['grep', suite.grep]);
  if (report.merged) meta.push(['merged', 'from shard reports (agentcheck merge)']);
  meta.push(['harness', suite.harness]);
  return `<header id="summary"${dataAttrs({ verdict, 'duration-ms': report.duration_ms, 'started-at': report.started_at })}>
<h1>agentcheck: <span class="verdict-${verdict}">${verdict}</span></h1>
<p><strong>${esc(summaryLine(report))}</strong></p>
${report.interrupted ? '<p class="note">The run was interrupted: rows it did not reach are marked NOT RUN.</p>' : ''}
${report.stray_errors ? `<p class="note"${dataAttrs({ 'stray-errors': report.stray_errors.count })}>${esc(capitalized(strayErrorsNote(report.stray_errors)))}</p>` : ''}
<dl class="totals">${boxes}</dl>
${summary.failed + summary.errored ? `<p><a href="#failures">${summary.failed + summary.errored} failed or errored runs, with their reasons</a></p>` : ''}
<dl class="meta">${meta.map(([key, value]) => `<dt>${esc(key)}</dt><dd>${esc(value)}</dd>`).join('')}</dl>
${statsNote ? `<p class="note">${esc(statsNote)}</p>` : ''}
</header>`;
}
