import type { ToolSelection } from '../../stats/stats-types.js';
import { dataAttrs, esc } from './escape.js';
import { compareCodeUnits } from '../../../config/code-unit-order.js';

/** At most this many "called instead" columns; the rest are summed in a note. */
export const HEATMAP_MAX_COLUMNS = 24;
/** At most this many expected-tool rows. */
export const HEATMAP_MAX_ROWS = 40;

/**
 * One variant's confusion table (expected tool -> tools called instead) as a heat map: a cell's
 * colour deepens with its count relative to the largest cell, so the tools a model mixes up
 * stand out at a glance. Every cell carries its count in `data-count`. A variant without scored
 * runs (every run without choices, or no scenario expecting a tool: docs/statistics.md) says so,
 * since an empty table there means nothing was judged, not that nothing was missed.
 */
export function confusionHeatmap(variant: string, selection: Readonly<Pick<ToolSelection, 'runs' | 'confusion'>>, fullReport = 'report.json'): string {
  if (!selection.runs) {
    return (
      `<p class="note"${dataAttrs({ variant, confusion: 'unscored' })}>${esc(variant)}: no scored runs ` +
      '(a run is scored when it made choices and its scenario expects a tool), so no missed tool to show.</p>'
    );
  }
  const expected = Object.entries(selection.confusion).sort(([a, x], [b, y]) => y.missed - x.missed || compareCodeUnits(a, b));
  if (!expected.length) return `<p class="note"${dataAttrs({ variant, confusion: 'none' })}>${esc(variant)}: no run missed an expected tool.</p>`;
  const totals = new Map<string, number>();
  for (const [, entry] of expected) {
    for (const [tool, count] of Object.entries(entry.called_instead)) totals.set(tool, (totals.get(tool) ?? 0) + count);
  }
  const columns = [...totals].sort(([a, x], [b, y]) => y - x || compareCodeUnits(a, b)).map(([tool]) => tool);
  const shownColumns = columns.slice(0, HEATMAP_MAX_COLUMNS);
  const shownRows = expected.slice(0, HEATMAP_MAX_ROWS);
  const max = Math.max(1, ...shownRows.flatMap(([, e]) => [e.missed, ...Object.values(e.called_instead)]));

  const head = `<tr><th>expected \\ called instead</th><th class="num">missed</th>${shownColumns.map((tool) => `<th class="rot">${esc(tool)}</th>`).join('')}</tr>`;
  const body = shownRows.map(([tool, entry]) => {
    const missed = heatCell(variant, tool, null, entry.missed, max, 'missed');
    const cells = shownColumns.map((called) =>
      heatCell(variant, tool, called, Object.hasOwn(entry.called_instead, called) ? entry.called_instead[called] : 0, max, 'instead'),
    );
    return `<tr${dataAttrs({ expected: tool })}><th>${esc(tool)}</th>${missed}${cells.join('')}</tr>`;
  });
  const notes: string[] = [];
  if (columns.length > shownColumns.length) notes.push(`${columns.length - shownColumns.length} more called-instead tools not shown`);
  if (expected.length > shownRows.length) notes.push(`${expected.length - shownRows.length} more expected tools not shown`);
  return (
    `<h3>${esc(variant)}</h3><table class="heat"${dataAttrs({ variant })}>${head}${body.join('')}</table>` +
    (notes.length ? `<p class="note">${esc(notes.join('; '))} (${esc(fullReport)} holds them all).</p>` : '')
  );
}

function heatCell(variant: string, expected: string, called: string | null, count: number, max: number, kind: 'missed' | 'instead'): string {
  // Red for tools called instead, grey-blue for the miss count, so the two kinds never look alike.
  const alpha = count ? 0.15 + 0.85 * (count / max) : 0;
  const rgb = kind === 'missed' ? '87, 96, 166' : '207, 34, 46';
  const style = count ? ` style="background: rgba(${rgb}, ${alpha.toFixed(3)});${alpha > 0.55 ? ' color: #fff;' : ''}"` : '';
  const title = called === null ? `${count} run(s) missed ${expected}` : `${count} run(s) missed ${expected} and called ${called}`;
  return `<td class="cell num"${dataAttrs({ variant, expected, called: called ?? undefined, kind, count })}${style} title="${esc(title)}">${count || ''}</td>`;
}
