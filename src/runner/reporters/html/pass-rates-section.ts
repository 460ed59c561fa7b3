import type { ReportStats } from '../../stats/stats-types.js';
import { headRow, note, numCell, section, textCell } from './cells.js';
import { dataAttrs } from './escape.js';
import { fmtInt, fmtInterval, fmtPercent } from './format.js';
import { passRateChart } from './pass-rate-chart.js';

/** The chart plus a table of the same numbers, with pass@k / pass^k and the stability labels. */
export function passRatesSection(stats: ReportStats, variants: readonly string[], repeats: number): string {
  const chart = passRateChart(variants.map((name) => [name, stats.variants[name]]));
  const k = repeats;
  const head = ['variant', 'runs', 'passed', 'pass rate', '95% CI', ...(k > 1 ? [`pass@${k}`, `pass^${k}`] : []), 'stable-pass', 'flaky', 'stable-fail'];
  const rows = variants.map((name) => {
    const s = stats.variants[name];
    const at = s?.pass_k.find((entry) => entry.k === k);
    const cells = [
      textCell(name),
      numCell('runs', s?.runs, fmtInt(s?.runs)),
      numCell('passed', s?.passed, fmtInt(s?.passed)),
      numCell('pass_rate', s?.pass_rate, fmtPercent(s?.pass_rate)),
      `<td class="num"${dataAttrs({ field: 'pass_rate_ci', 'ci-low': s?.pass_rate_ci?.low ?? null, 'ci-high': s?.pass_rate_ci?.high ?? null })}>${fmtInterval(s?.pass_rate_ci)}</td>`,
      ...(k > 1 ? [numCell('pass_at_k', at?.pass_at_k, fmtPercent(at?.pass_at_k)), numCell('pass_hat_k', at?.pass_hat_k, fmtPercent(at?.pass_hat_k))] : []),
      numCell('stable_pass', s?.labels.stable_pass, fmtInt(s?.labels.stable_pass)),
      numCell('flaky', s?.labels.flaky, fmtInt(s?.labels.flaky)),
      numCell('stable_fail', s?.labels.stable_fail, fmtInt(s?.labels.stable_fail)),
    ];
    return `<tr${dataAttrs({ variant: name })}>${cells.join('')}</tr>`;
  });
  const explain =
    'Pass rate: passed / runs that ran to a result (not-run and skipped rows are left out). Whiskers: 95% Wilson score interval.' +
    (k > 1 ? ` pass@${k}: chance that at least one of ${k} repeats passes; pass^${k}: chance that all ${k} pass (tau-bench).` : '');
  return section('pass-rates', 'Pass rate per variant', `${chart}\n<table class="variants">${headRow(head)}${rows.join('')}</table>\n${note(explain)}`);
}
