import type { Report } from '../../report/report.js';
import type { Palette } from './ansi.js';
import type { ShrinkStep } from './fit-columns.js';
import { fittedTable } from './fitted-table.js';
import { cellText } from './row-cells.js';
import { variantComparison } from './variant-comparison.js';
import { passRate, reportTags, variantStats } from './variant-stats.js';

/** Characters the pass^k column keeps at its narrowest (its minimum width less padding). */
const PASS_HAT_ROOM = 6;

/**
 * The variant comparison for the terminal, within `width` columns: one row per variant (runs,
 * passed, pass rate and the statistics of variantComparison), then, when rows carry tags, one
 * row per tag with a column per variant. Tags go down rather than across because a suite has few
 * variants but may have many tags, and a column per tag would push the table past the width.
 */
export function comparisonTables(report: Readonly<Report>, paint: Palette, width: number): string {
  const stats = variantStats(report);
  const comparison = variantComparison(report);
  const col = (title: string) => comparison.head.findIndex((head) => head.startsWith(title));
  // `pass^12` is one word wider than the column's narrowest (6): the terminal's head is then
  // `pass^k k=12`, which breaks onto two lines there instead of being cut (docs/statistics.md).
  const passHat = col('pass^');
  const k = passHat >= 0 ? comparison.head[passHat].slice('pass^'.length) : '';
  const head = comparison.head.map((title, index) => (index === passHat && title.length > PASS_HAT_ROOM ? `pass^k k=${k}` : title));
  // Variant names and tags are user text: capped like the main table's cells, then wrapped.
  // Long names give way first, then the intervals and heads wrap; past that, the tool-selection
  // columns and pass^k go before the pass rates and the difference from the reference.
  const minimums: Array<[string, number]> = [
    ['variant', 12],
    ['runs', 6],
    ['passed', 8],
    ['pass rate', 7],
    ['95% CI', 9],
    ['pass^', Math.max(PASS_HAT_ROOM, `k=${k}`.length) + 2],
    ['precision', 11],
    ['recall', 8],
    ['p vs', 8],
    ['diff vs', 12],
  ];
  const variants = fittedTable(
    {
      head: head.map((title) => cellText(title)),
      rows: comparison.rows.map(([variant, ...cells]) => [cellText(variant), ...cells]),
      align: comparison.align,
    },
    paint,
    width,
    {
      steps: (
        [
          [0, 20],
          [col('diff vs'), 18],
          [col('95% CI'), 9],
          [0, 12],
          ...minimums.map(([title, min]): ShrinkStep => [col(title), min]),
          [0, 8],
        ] satisfies ShrinkStep[]
      ).filter(([index]) => index >= 0),
      breakWords: [0],
      dropOrder: ['precision', 'recall', 'pass^', '95% CI', 'runs', 'p vs'].map(col).filter((index) => index >= 0),
    },
  );
  let text = `${variants}\n`;

  const tags = reportTags(report.scenarios);
  if (tags.length) {
    const rows = tags.map((tag) => [
      cellText(tag),
      ...stats.map((s) => {
        const count = s.tags.get(tag);
        return count ? `${passRate(count)} (${count.passed}/${count.counted})` : '-';
      }),
    ]);
    const head = ['tag', ...stats.map((s) => cellText(s.variant))];
    const byTag = fittedTable(
      { head, rows, align: ['left', ...stats.map(() => 'right' as const)] },
      paint,
      width,
      // Past the minimums the last variants go, never the first (the reference).
      {
        steps: [[0, 16], ...head.map((_, i): ShrinkStep => [i, 9]), [0, 7]],
        breakWords: [0],
        dropOrder: head
          .map((_, i) => i)
          .slice(2)
          .reverse(),
      },
    );
    text += `${byTag}\n`;
  }
  return text;
}
