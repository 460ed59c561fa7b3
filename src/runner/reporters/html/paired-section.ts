import type { PairedComparison } from '../../stats/stats-types.js';
import { headRow, note, numCell, section, textCell } from './cells.js';
import { dataAttrs, esc } from './escape.js';
import { fmtInt, fmtP, fmtPercent, fmtPoints } from './format.js';

/** At most this many scenario ids per flip list (the counts are always complete). */
export const FLIP_LIST_LIMIT = 50;

/**
 * Each variant against the reference over the same scenario x repeat pairs: the 2x2 counts,
 * the pass-rate difference with its bootstrap interval, McNemar's exact p, and which scenarios
 * flipped each way.
 */
export function pairedSection(paired: readonly PairedComparison[]): string {
  if (!paired.length) return '';
  // Short heads that may wrap, and the interval under the difference: the table fits the page.
  const head = [
    'comparison',
    'pairs',
    'both pass',
    'base only',
    'variant only',
    'both fail',
    'base rate',
    'variant rate',
    'difference (95% CI)',
    'McNemar p',
    'flips to pass / fail',
  ];
  const rows = paired.map((p) => {
    const cells = [
      textCell(`${p.variant} vs ${p.base}`, 'wrap'),
      numCell('pairs', p.pairs, fmtInt(p.pairs)),
      numCell('both_pass', p.both_pass, fmtInt(p.both_pass)),
      numCell('base_only', p.base_only, fmtInt(p.base_only)),
      numCell('variant_only', p.variant_only, fmtInt(p.variant_only)),
      numCell('both_fail', p.both_fail, fmtInt(p.both_fail)),
      numCell('base_pass_rate', p.base_pass_rate, fmtPercent(p.base_pass_rate)),
      numCell('variant_pass_rate', p.variant_pass_rate, fmtPercent(p.variant_pass_rate)),
      differenceCell(p),
      numCell('mcnemar_p', p.mcnemar_p, fmtP(p.mcnemar_p)),
      `<td class="num"${dataAttrs({ field: 'flips', 'flipped-to-pass': p.flipped_to_pass.length, 'flipped-to-fail': p.flipped_to_fail.length })}>${p.flipped_to_pass.length} / ${p.flipped_to_fail.length}</td>`,
    ];
    return `<tr${dataAttrs({ variant: p.variant, base: p.base })}>${cells.join('')}</tr>`;
  });
  const flips = paired.map((p) => flipLists(p)).join('');
  const explain =
    `Pairs: scenario x repeat runs where both variants ran to a result. Difference: variant minus base pass rate, in percentage points, ` +
    `with a scenario bootstrap 95% interval (${paired[0].bootstrap.resamples} resamples, seed ${paired[0].bootstrap.seed}). ` +
    'McNemar p: exact two-sided test on the discordant pairs (base only vs variant only). Flipped: scenarios whose discordant pairs lean one way.';
  return section('paired', 'Paired comparison', `<table class="paired fit">${headRow(head)}${rows.join('')}</table>\n${flips}\n${note(explain)}`);
}

/** `+36.1 pp (+13.9 to +61.1)`: the difference and its interval in one cell, both in data- attributes. */
function differenceCell(p: PairedComparison): string {
  const ci = p.difference_ci;
  const interval = ci ? ` <br><span class="note">(${esc(fmtPoints(ci.low, false))} to ${esc(fmtPoints(ci.high, false))})</span>` : '';
  return `<td class="num"${dataAttrs({ field: 'difference', value: p.difference, 'ci-low': ci?.low ?? null, 'ci-high': ci?.high ?? null })}>${esc(fmtPoints(p.difference))}${interval}</td>`;
}

function flipLists(p: PairedComparison): string {
  const list = (kind: string, ids: readonly string[]) => {
    if (!ids.length) return '';
    const items = ids
      .slice(0, FLIP_LIST_LIMIT)
      .map((id) => `<li class="mono"${dataAttrs({ scenario: id })}>${esc(id)}</li>`)
      .join('');
    const more = ids.length > FLIP_LIST_LIMIT ? `<li class="note">${ids.length - FLIP_LIST_LIMIT} more in report.json</li>` : '';
    return `<details${dataAttrs({ variant: p.variant, flip: kind })}><summary>${esc(`${p.variant} vs ${p.base}: ${ids.length} flipped to ${kind}`)}</summary><ul>${items}${more}</ul></details>`;
  };
  return list('pass', p.flipped_to_pass) + list('fail', p.flipped_to_fail);
}
