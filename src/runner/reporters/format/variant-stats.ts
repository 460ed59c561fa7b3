import type { Report, ScenarioRow } from '../../report/report.js';
import { isCounted } from '../../stats/outcomes.js';
import { runShape } from './run-shape.js';

/** Passed out of the rows that ran to a result (pass, fail or error): report.json's `runs`. */
export interface PassCount {
  passed: number;
  counted: number;
}

/** One variant's totals and per-tag pass counts. */
export interface VariantStats extends PassCount {
  variant: string;
  tags: Map<string, PassCount>;
}

/**
 * Pass counts per variant and per tag. Not-run and skipped rows are left out of the rate:
 * an interrupted or skipped run says nothing about the variant, and counting it as a
 * failure would punish whichever variant the interrupt happened to hit.
 */
export function variantStats(report: Readonly<Report>): VariantStats[] {
  const byVariant = new Map<string, VariantStats>();
  for (const variant of runShape(report).variants) byVariant.set(variant, { variant, passed: 0, counted: 0, tags: new Map() });
  for (const row of report.scenarios) {
    const stats = byVariant.get(row.variant)!;
    if (!isCounted(row)) continue;
    const passed = row.status === 'pass' ? 1 : 0;
    stats.counted++;
    stats.passed += passed;
    for (const tag of row.tags) {
      const count = stats.tags.get(tag) ?? { passed: 0, counted: 0 };
      count.counted++;
      count.passed += passed;
      stats.tags.set(tag, count);
    }
  }
  return [...byVariant.values()];
}

/** Every tag any row carries, sorted. */
export function reportTags(rows: readonly ScenarioRow[]): string[] {
  const tags = new Set<string>();
  for (const row of rows) for (const tag of row.tags) tags.add(tag);
  return [...tags].sort();
}

/** `83.3%`, or '-' when nothing ran to a result. */
export function passRate(count: PassCount | undefined): string {
  if (!count || count.counted === 0) return '-';
  return `${Math.round((count.passed / count.counted) * 1000) / 10}%`;
}
