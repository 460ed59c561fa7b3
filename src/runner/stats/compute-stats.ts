import type { Report, ScenarioRow } from '../report/report.js';
import { canonicalRowOrder } from '../report/row-order.js';
import { scenarioOutcomes } from './outcomes.js';
import { pairedComparison } from './paired-comparison.js';
import { STATS_SCHEMA, type ReportStats, type ScenarioOutcome } from './stats-types.js';
import { variantStatistics } from './variant-statistics.js';

/** The variant every other one is compared with when the run has no `base`. */
const REFERENCE = 'base';

/**
 * report.stats from the report's rows (docs/statistics.md): per-variant statistics, per-scenario
 * outcomes and each variant paired against the reference (`base`, else the first variant).
 */
export function computeStats(report: Pick<Report, 'suite' | 'scenarios'>): ReportStats {
  // Every sum runs in one order, whatever the rows' (a file's order, or a merge's by id): floating
  // point addition is not associative, and a merged report must give the unsharded run's numbers.
  const rows = [...report.scenarios].sort(canonicalRowOrder(report.suite.variants));
  const variants = variantOrder(report.suite.variants, rows);
  const outcomes = scenarioOutcomes(rows);
  // Without rows nothing is compared (an empty shard): no reference either (docs/statistics.md).
  const base = !rows.length ? null : variants.includes(REFERENCE) ? REFERENCE : (variants[0] ?? null);
  return {
    schema: STATS_SCHEMA,
    base,
    confidence: 0.95,
    // fromEntries, not assignment: a variant or scenario named `__proto__` stays an ordinary key.
    variants: Object.fromEntries(
      variants.map((variant) => [
        variant,
        variantStatistics(
          rows.filter((row) => row.variant === variant),
          outcomesOf(outcomes, variant),
        ),
      ]),
    ),
    scenarios: Object.fromEntries([...outcomes].map(([id, byVariant]) => [id, Object.fromEntries(byVariant)])),
    paired: base === null ? [] : variants.filter((v) => v !== base).map((variant) => pairedComparison(rows, base, variant)),
  };
}

/** The report's stats when it carries them in this format, else computed from its rows. */
export function statsOf(report: Readonly<Report>): ReportStats {
  // Reports written before statistics existed (or by another version) are still rendered.
  return report.stats?.schema === STATS_SCHEMA ? report.stats : computeStats(report);
}

/**
 * The suite's variants in its order (an empty shard's too: runs 0, rates null), then any other
 * variant a row names (a hand-edited report).
 */
function variantOrder(suiteVariants: readonly string[], rows: readonly ScenarioRow[]): string[] {
  const order = new Set(suiteVariants);
  for (const row of rows) order.add(row.variant);
  return [...order];
}

function outcomesOf(outcomes: Map<string, Map<string, ScenarioOutcome>>, variant: string): ScenarioOutcome[] {
  return [...outcomes.values()].flatMap((byVariant) => {
    const outcome = byVariant.get(variant);
    return outcome ? [outcome] : [];
  });
}
