import type { ScenarioRow } from '../../report/report.js';
import { checksCell, STATUS_LABEL, toolsCell, verdictCell } from '../format/row-cells.js';
import { numCell, section, textCell } from './cells.js';
import { dataAttrs, esc } from './escape.js';
import { fmtMs } from './format.js';
import { transcriptView } from './transcript-view.js';

/** At most this many rows in the all-rows table; past it a note points at report.json. */
export const HTML_ROW_LIMIT = 1000;

/**
 * Characters of transcript HTML the all-runs table holds at most; later rows point at report.json.
 * 1,000 rows of long transcripts would otherwise make a page no browser opens comfortably.
 */
export const ROWS_TRANSCRIPT_BUDGET = 4_000_000;

const NUMERIC = new Set(['#', 'turns', 'ms']);

/** The id of the all-runs table row of report row `index`: what the matrix links to. */
export function runAnchor(index: number): string {
  return `run-${index}`;
}

/**
 * Every run (up to the cap) in report order, with a filter box the page script drives; each row
 * is an anchor (`#run-N`, N its index in report.json) and carries its transcript, collapsed.
 */
export function rowsSection(rows: readonly ScenarioRow[], showRepeat: boolean, fullReport = 'report.json'): string {
  if (!rows.length) return section('rows', 'All runs', '<p class="note">No scenarios ran.</p>');
  const head = ['status', 'scenario', 'variant', ...(showRepeat ? ['#'] : []), 'verdict', 'checks', 'tools called', 'turns', 'ms', 'transcript'];
  const shown = rows.slice(0, HTML_ROW_LIMIT);
  let budget = ROWS_TRANSCRIPT_BUDGET;
  const transcriptCell = (row: ScenarioRow): string => {
    const html = transcriptView(row.transcript, fullReport);
    if (!html) return '<span class="note">none</span>';
    if (html.length > budget) return `<span class="note" data-transcript="omitted">in ${fullReport} (page size limit)</span>`;
    budget -= html.length;
    return html;
  };
  const body = shown.map((row, index) => {
    const qualifier = row.expect_failure ? 'expected failure' : row.no_expectation ? 'no expectation' : '';
    const expected = row.status === 'pass' && qualifier ? `<br><span class="note">${qualifier}</span>` : '';
    const cells = [
      `<td><span class="status status-${row.status}">${STATUS_LABEL[row.status]}${expected}</span></td>`,
      textCell(row.id, 'mono'),
      textCell(row.variant),
      ...(showRepeat ? [numCell('repeat', row.repeat, String(row.repeat))] : []),
      textCell(verdictCell(row)),
      textCell(checksCell(row)),
      `<td class="mono" title="${esc(toolsCell(row.test_run?.tools, 10_000))}">${esc(toolsCell(row.test_run?.tools))}</td>`,
      numCell('turns', row.turns, String(row.turns)),
      numCell('duration_ms', row.duration_ms, fmtMs(row.duration_ms)),
      `<td class="transcript-cell">${transcriptCell(row)}</td>`,
    ];
    return `<tr id="${runAnchor(index)}"${dataAttrs({ 'row-id': row.id, variant: row.variant, repeat: row.repeat, status: row.status })}>${cells.join('')}</tr>`;
  });
  const filters =
    '<div class="filters"><input type="search" id="row-filter" placeholder="Filter by scenario, variant, tool..." aria-label="Filter rows">' +
    '<label><input type="checkbox" id="row-failing"> only failed and errored</label><span id="row-count" class="note"></span></div>';
  const more =
    rows.length > shown.length
      ? `<p class="note" data-rows-omitted="${rows.length - shown.length}">Showing the first ${shown.length} of ${rows.length} runs; ${fullReport} holds them all.</p>`
      : '';
  return section(
    'rows',
    `All runs (${rows.length})`,
    `${filters}<table id="rows-table"><thead><tr>${head.map((title) => `<th${NUMERIC.has(title) ? ' class="num"' : ''}>${esc(title)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>${more}`,
  );
}
