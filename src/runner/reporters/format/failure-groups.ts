import type { ScenarioRow } from '../../report/report.js';
import { isFailing, rowReason } from './row-cells.js';

/** Failing runs of one scenario that failed the same way, across variants and repeats. */
export interface FailureGroup {
  /** The first run of the group: its details stand for all. */
  row: ScenarioRow;
  rows: ScenarioRow[];
}

/**
 * Groups failed and errored rows by scenario id, status and reason, in first-seen order, so nine
 * identical failures (three variants x three repeats) print once with `x9: base#0-2, ...`.
 */
export function groupFailures(rows: readonly ScenarioRow[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const row of rows) {
    if (!isFailing(row)) continue;
    const key = JSON.stringify([row.id, row.status, rowReason(row)]);
    const group = groups.get(key);
    if (group) group.rows.push(row);
    else groups.set(key, { row, rows: [row] });
  }
  return [...groups.values()];
}

/**
 * Which runs a group holds: `base#0-2, terse#0,2` (repeat ranges per variant, in first-seen
 * order), or just the variant names when the suite has no repeats.
 */
export function groupRuns(rows: readonly ScenarioRow[], showRepeat: boolean): string {
  const byVariant = new Map<string, number[]>();
  for (const row of rows) {
    const repeats = byVariant.get(row.variant) ?? [];
    repeats.push(row.repeat);
    byVariant.set(row.variant, repeats);
  }
  return [...byVariant].map(([variant, repeats]) => (showRepeat ? `${variant}#${ranges(repeats)}` : variant)).join(', ');
}

/** `0-2,5` from [0, 1, 2, 5]. */
function ranges(numbers: number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i];
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++;
    parts.push(sorted[i] === start ? String(start) : `${start}-${sorted[i]}`);
  }
  return parts.join(',');
}
