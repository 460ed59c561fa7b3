/** One step of narrowing: shrink column `index` (padding included) to no less than `min`. */
export type ShrinkStep = readonly [index: number, min: number];

/**
 * Column widths (padding included; null = as wide as the content) that make a table of
 * `natural` widths fit `columns` characters, borders included. The steps run in order until
 * the table fits; when even the last step's minimums are too wide, the table is as narrow as
 * they allow. Null when the table fits as it is.
 */
export function fitColumns(natural: readonly number[], columns: number, steps: readonly ShrinkStep[]): Array<number | null> | null {
  const borders = natural.length + 1;
  let excess = natural.reduce((sum, width) => sum + width, 0) + borders - columns;
  if (excess <= 0) return null;
  const current = [...natural];
  for (const [index, min] of steps) {
    if (excess <= 0) break;
    const cut = Math.min(excess, Math.max(0, current[index] - min));
    current[index] -= cut;
    excess -= cut;
  }
  return current.map((width, index) => (width === natural[index] ? null : width));
}
