import type { RowId } from './run-key.js';

/**
 * The canonical order of rows: scenario id (code units, so every machine agrees), then variant in
 * the suite's order (`base`, then the config's as written; a variant the suite does not list
 * after them, by name), then repeat. `agentcheck merge` orders its rows so, and the statistics sum
 * in this order, so a merged report's numbers are the unsharded run's to the last bit
 * (floating-point addition depends on order; docs/ci.md).
 */
export function canonicalRowOrder(variants: readonly string[]): (a: RowId, b: RowId) => number {
  const rank = (variant: string) => {
    const index = variants.indexOf(variant);
    return index === -1 ? variants.length : index;
  };
  return (a, b) => {
    if (a.id !== b.id) return a.id < b.id ? -1 : 1;
    if (a.variant !== b.variant) return rank(a.variant) - rank(b.variant) || (a.variant < b.variant ? -1 : 1);
    return a.repeat - b.repeat;
  };
}
