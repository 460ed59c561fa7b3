import type { Report, RowStatus, ScenarioRow } from '../../report/report.js';
import type { ReportStats } from '../../stats/stats-types.js';
import { clip, rowReason, STATUS_LABEL } from '../format/row-cells.js';
import { note, section } from './cells.js';
import { dataAttrs, esc } from './escape.js';
import { fmtPercent, fmtPoints } from './format.js';
import { HTML_ROW_LIMIT, runAnchor } from './rows-section.js';

/** At most this many scenarios (matrix rows); report.json holds the rest. */
export const MATRIX_MAX_SCENARIOS = 500;
/** Longest delta shown under a variant's name; report.json keeps it whole. */
const DELTA_MAX = 4000;

/** A cell's overall status: every run the same, or `mixed` when its repeats disagree. */
type CellStatus = RowStatus | 'mixed';

/**
 * Scenarios down, variants across: one cell per scenario x variant with its status (and with
 * repeats, passed/runs and one link per repeat), each linking to the run's row in the all-runs
 * table, where its transcript is. The head shows what each variant changes (its delta) and the
 * foot its pass rate and difference from the reference variant.
 */
export function matrixSection(
  report: Readonly<Report>,
  stats: ReportStats,
  variants: readonly string[],
  showRepeat: boolean,
  fullReport = 'report.json',
): string {
  const cells = new Map<string, Map<string, number[]>>();
  report.scenarios.forEach((row, index) => {
    let byVariant = cells.get(row.id);
    if (!byVariant) cells.set(row.id, (byVariant = new Map()));
    const runs = byVariant.get(row.variant) ?? [];
    runs.push(index);
    byVariant.set(row.variant, runs);
  });
  const ids = [...cells.keys()];
  const shown = ids.slice(0, MATRIX_MAX_SCENARIOS);
  const head = `<thead><tr><th>scenario</th>${variants.map((name) => variantHead(name, report.suite.variant_deltas, stats.base)).join('')}</tr></thead>`;
  const body = shown.map((id) => {
    const byVariant = cells.get(id)!;
    const tds = variants.map((variant) => matrixCell(report.scenarios, id, variant, byVariant.get(variant) ?? [], showRepeat));
    return `<tr${dataAttrs({ scenario: id })}><th class="mono scenario" scope="row">${esc(id)}</th>${tds.join('')}</tr>`;
  });
  const foot = `<tfoot>${footRow(
    'pass rate',
    variants,
    (name) => {
      const s = stats.variants[name];
      return [s?.pass_rate, s ? `${fmtPercent(s.pass_rate)} (${s.passed}/${s.runs})` : '-'];
    },
    'pass_rate',
  )}${footRow(
    `vs ${stats.base ?? 'base'}`,
    variants,
    (name) => {
      const paired = stats.paired.find((p) => p.variant === name);
      return [paired?.difference, name === stats.base ? 'reference' : fmtPoints(paired?.difference)];
    },
    'difference',
  )}</tfoot>`;
  const notes = [
    note(
      'Each cell is a scenario under a variant: click it (or a repeat) to open the run in the table of all runs, with its transcript. With repeats a cell shows passed / runs; MIXED means its repeats disagree.',
    ),
  ];
  if (ids.length > shown.length)
    notes.push(note(`${ids.length - shown.length} more scenarios are in ${fullReport} (the matrix shows the first ${shown.length}).`));
  return section('matrix', 'Scenario x variant', `<table class="matrix fit">${head}<tbody>${body.join('')}</tbody>${foot}</table>\n${notes.join('')}`);
}

/** The variant's name and, for a variant other than the reference, the delta it applies. */
function variantHead(name: string, deltas: Record<string, unknown> | undefined, base: string | null): string {
  let detail = '';
  if (name === (base ?? 'base')) detail = '<div class="note">unchanged build</div>';
  else if (deltas && Object.hasOwn(deltas, name)) {
    const text = clip(JSON.stringify(deltas[name], null, 2) ?? 'null', DELTA_MAX);
    detail = `<details class="delta"><summary>delta</summary><pre class="mono">${esc(text)}</pre></details>`;
  }
  return `<th${dataAttrs({ variant: name })}><span class="variant-name">${esc(name)}</span>${detail}</th>`;
}

function footRow(label: string, variants: readonly string[], value: (name: string) => [number | null | undefined, string], field: string): string {
  const tds = variants.map((name) => {
    const [raw, text] = value(name);
    return `<td class="num"${dataAttrs({ variant: name, field, value: raw ?? null })}>${esc(text)}</td>`;
  });
  return `<tr><th scope="row">${esc(label)}</th>${tds.join('')}</tr>`;
}

/** One scenario x variant: its status, and a link to each of its runs. */
function matrixCell(rows: readonly ScenarioRow[], id: string, variant: string, indexes: readonly number[], showRepeat: boolean): string {
  if (!indexes.length) return `<td class="cell status-none"${dataAttrs({ scenario: id, variant, status: 'none' })}><span class="note">-</span></td>`;
  const runs = indexes.map((index) => rows[index]);
  const status = cellStatus(runs);
  const counted = runs.filter((row) => row.status === 'pass' || row.status === 'fail' || row.status === 'error');
  const passed = counted.filter((row) => row.status === 'pass').length;
  // runs: those that ran to a result, as the cell's "passed/runs" and the statistics count them.
  const attrs = dataAttrs({ scenario: id, variant, status, runs: counted.length, passed });
  const label = status === 'mixed' ? 'MIXED' : STATUS_LABEL[status];
  if (!showRepeat && indexes.length === 1) return `<td class="cell cell-${status}"${attrs}>${runLink(rows[indexes[0]], indexes[0], label)}</td>`;
  const links = indexes.map((index) => runLink(rows[index], index, `#${rows[index].repeat}`)).join(' ');
  return `<td class="cell cell-${status}"${attrs}><span class="status status-${status}">${label}</span> ${passed}/${counted.length}<div class="repeats">${links}</div></td>`;
}

/** A link to the run's row (its transcript is there), or plain text past the all-runs cap. */
function runLink(row: ScenarioRow, index: number, text: string): string {
  const title = `${row.variant} #${row.repeat}: ${STATUS_LABEL[row.status]}${row.status === 'pass' ? '' : ` - ${clip(rowReason(row), 300)}`}`;
  const attrs = `class="run-link status status-${row.status}" title="${esc(title)}"${dataAttrs({ 'row-index': index, status: row.status })}`;
  if (index >= HTML_ROW_LIMIT) return `<span ${attrs}>${esc(text)}</span>`;
  return `<a href="#${runAnchor(index)}" ${attrs}>${esc(text)}</a>`;
}

function cellStatus(runs: readonly ScenarioRow[]): CellStatus {
  const statuses = new Set(runs.map((row) => row.status));
  return statuses.size === 1 ? runs[0].status : 'mixed';
}
