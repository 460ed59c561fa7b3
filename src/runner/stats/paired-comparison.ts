import type { ScenarioRow } from '../report/report.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, bootstrapDifference, type PairedCluster } from './bootstrap.js';
import { mcnemarExact } from './mcnemar.js';
import { isCounted } from './outcomes.js';
import type { PairedComparison } from './stats-types.js';
import { compareCodeUnits } from '../../config/code-unit-order.js';

/**
 * Compares `variant` with `base` over the scenario x repeat pairs where both rows ran to a
 * result: the 2x2 table of outcomes, McNemar's exact test on the discordant pairs, the pass-rate
 * difference with a scenario bootstrap interval, and the scenarios that flipped each way.
 */
export function pairedComparison(rows: readonly ScenarioRow[], base: string, variant: string): PairedComparison {
  const baseRows = new Map<string, ScenarioRow>();
  for (const row of rows) if (row.variant === base && isCounted(row)) baseRows.set(pairKey(row), row);
  const clusters = new Map<string, PairedCluster & { base_only: number; variant_only: number }>();
  const table = { both_pass: 0, base_only: 0, variant_only: 0, both_fail: 0 };
  for (const row of rows) {
    if (row.variant !== variant || !isCounted(row)) continue;
    const other = baseRows.get(pairKey(row));
    if (!other) continue;
    const basePass = other.status === 'pass';
    const variantPass = row.status === 'pass';
    let cluster = clusters.get(row.id);
    if (!cluster) clusters.set(row.id, (cluster = { pairs: 0, base_passes: 0, variant_passes: 0, base_only: 0, variant_only: 0 }));
    cluster.pairs++;
    if (basePass) cluster.base_passes++;
    if (variantPass) cluster.variant_passes++;
    if (basePass && variantPass) table.both_pass++;
    else if (!basePass && !variantPass) table.both_fail++;
    else if (basePass) {
      table.base_only++;
      cluster.base_only++;
    } else {
      table.variant_only++;
      cluster.variant_only++;
    }
  }
  const pairs = table.both_pass + table.base_only + table.variant_only + table.both_fail;
  const basePassRate = pairs ? (table.both_pass + table.base_only) / pairs : null;
  const variantPassRate = pairs ? (table.both_pass + table.variant_only) / pairs : null;
  const flipped = [...clusters].sort(([a], [b]) => compareCodeUnits(a, b));
  return {
    base,
    variant,
    pairs,
    scenarios: clusters.size,
    ...table,
    base_pass_rate: basePassRate,
    variant_pass_rate: variantPassRate,
    // From the discordant counts, not the two rates: equal rates then give exactly 0.
    difference: pairs ? (table.variant_only - table.base_only) / pairs : null,
    // Clusters in id order: the interval must not depend on row order (merged shards, reruns).
    difference_ci: bootstrapDifference(
      flipped.map(([, cluster]) => cluster),
      { resamples: BOOTSTRAP_RESAMPLES, seed: BOOTSTRAP_SEED },
    ),
    // No pairs, nothing tested: null like every other paired number, not the p = 1 of b + c = 0.
    mcnemar_p: pairs ? mcnemarExact(table.base_only, table.variant_only) : null,
    bootstrap: { resamples: BOOTSTRAP_RESAMPLES, seed: BOOTSTRAP_SEED },
    flipped_to_pass: flipped.filter(([, c]) => c.variant_only > c.base_only).map(([id]) => id),
    flipped_to_fail: flipped.filter(([, c]) => c.base_only > c.variant_only).map(([id]) => id),
  };
}

function pairKey(row: ScenarioRow): string {
  // JSON of a tuple: no separator character can collide with one inside an id.
  return JSON.stringify([row.id, row.repeat]);
}
