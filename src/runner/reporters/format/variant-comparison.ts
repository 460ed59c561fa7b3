import type { Report } from '../../report/report.js';
import { statsOf } from '../../stats/compute-stats.js';
import { runShape } from './run-shape.js';
import { differenceCell, intervalCell, percentCell, pValueCell } from './stats-cells.js';
import { passRate, variantStats } from './variant-stats.js';

/** The per-variant comparison as plain cells, shared by the terminal and Markdown reporters. */
export interface VariantComparison {
  head: string[];
  /** Right-aligned except the variant name. */
  align: Array<'left' | 'right'>;
  /** One row per variant; the first cell is the variant's name (unescaped). */
  rows: string[][];
}

/**
 * Runs (the counted rows the pass rate is over, as report.json's stats), passed and pass rate per variant, then the statistics: the 95% Wilson interval, pass^k
 * at k = repeats (only with repeats), tool-selection precision and recall, and against the
 * reference variant McNemar's p and the pass-rate difference with its bootstrap interval.
 */
export function variantComparison(report: Readonly<Report>): VariantComparison {
  const stats = statsOf(report);
  const k = runShape(report).repeats;
  const base = stats.base ?? 'base';
  const head = [
    'variant',
    'runs',
    'passed',
    'pass rate',
    '95% CI',
    ...(k > 1 ? [`pass^${k}`] : []),
    'precision',
    'recall',
    `p vs ${base}`,
    `diff vs ${base} (95% CI)`,
  ];
  const rows = variantStats(report).map((counts) => {
    const s = stats.variants[counts.variant];
    const paired = stats.paired.find((p) => p.variant === counts.variant);
    const passHat = s?.pass_k.find((entry) => entry.k === k);
    return [
      counts.variant,
      String(counts.counted),
      String(counts.passed),
      passRate(counts),
      intervalCell(s?.pass_rate_ci),
      ...(k > 1 ? [percentCell(passHat?.pass_hat_k)] : []),
      percentCell(s?.tool_selection.precision),
      percentCell(s?.tool_selection.recall),
      paired ? pValueCell(paired.mcnemar_p) : '-',
      paired ? differenceCell(paired.difference, paired.difference_ci) : '-',
    ];
  });
  return { head, align: head.map((_, i) => (i === 0 ? 'left' : 'right')), rows };
}
