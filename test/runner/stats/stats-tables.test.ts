import { describe, expect, it } from 'vitest';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { differenceCell, intervalCell, percentCell, pValueCell } from '../../../src/runner/reporters/format/stats-cells.js';
import { renderHtml } from '../../../src/runner/reporters/html-reporter.js';
import { renderMarkdown } from '../../../src/runner/reporters/md-reporter.js';
import { renderTableReport } from '../../../src/runner/reporters/table-reporter.js';
import { computeStats } from '../../../src/runner/stats/compute-stats.js';
import { pairedReport } from './paired-fixture.js';

describe('statistics in the comparison tables', () => {
  const input = pairedReport();
  input.stats = computeStats(input);
  // The bootstrap bounds depend on the PRNG stream (tested in bootstrap.test.ts); here only their shape.
  const diff = String.raw`-20 pp \([+-][\d.]+, [+-][\d.]+\)`;

  it('shows the Wilson interval, pass^k, precision/recall and the paired test in the terminal', () => {
    const text = renderTableReport(input, palette(false), { columns: 200 });
    expect(text).toMatch(/│ variant │ runs │ passed │ pass rate │\s+95% CI │ pass\^3 │ precision │ recall │ p vs base │ diff vs base \(95% CI\) │/);
    // base: 8/12 = 66.7%, Wilson (0.3906, 0.8619) [scipy], pass^3 = 1/2, precision 1/2 (one of two
    // tools called was expected), recall 1; the reference row has no paired test.
    expect(text).toMatch(/│ base\s+│\s+12 │\s+8 │\s+66\.7% │ \(39\.1%, 86\.2%\) │\s+50% │\s+50% │\s+100% │\s+- │\s+- │/);
    // lean: 4/10 = 40% (runs 10: its not_run and skipped rows are left out), Wilson (0.1682, 0.6873),
    // pass^3 = 1/3, McNemar b=3 c=1: 10/16 = 0.625, diff -0.2
    expect(text).toMatch(new RegExp(`│ lean\\s+│\\s+10 │\\s+4 │\\s+40% │ \\(16\\.8%, 68\\.7%\\) │\\s+33\\.3% │\\s+50% │\\s+100% │\\s+0\\.625 │\\s+${diff} │`));
  });

  it('shows the same numbers in the Markdown variants table', () => {
    const md = renderMarkdown(input);
    expect(md).toContain('| Variant | Runs | Passed | Pass rate | 95% CI | pass^3 | Precision | Recall | p vs base | Diff vs base (95% CI) |');
    expect(md).toContain('| base | 12 | 8 | 66.7% | (39.1%, 86.2%) | 50% | 50% | 100% | - | - |');
    expect(md).toMatch(new RegExp(String.raw`\| lean \| 10 \| 4 \| 40% \| \(16\.8%, 68\.7%\) \| 33\.3% \| 50% \| 100% \| 0\.625 \| ${diff} \|`));
    expect(md).toContain('McNemar');
  });

  it('shows the same runs in every reporter: the counted rows of report.json stats.variants.*.runs', () => {
    expect(input.stats?.variants.lean.runs).toBe(10);
    const runsCell = (html: string, variant: string) =>
      new RegExp(`<tr data-variant="${variant}"><td>${variant}</td><td class="num" data-field="runs" data-value="(\\d+)"`).exec(html)?.[1];
    const html = renderHtml(input);
    expect(runsCell(html, 'base')).toBe('12');
    expect(runsCell(html, 'lean')).toBe('10');
    expect(renderTableReport(input, palette(false), { columns: 200 })).toMatch(/│ lean\s+│\s+10 │\s+4 │\s+40% │/);
    expect(renderMarkdown(input)).toContain('| lean | 10 | 4 | 40% |');
  });

  it('formats the cells', () => {
    expect(percentCell(2 / 3)).toBe('66.7%');
    expect(percentCell(null)).toBe('-');
    expect(intervalCell({ low: 0.4902, high: 0.9433 })).toBe('(49%, 94.3%)');
    expect(pValueCell(0.021484375)).toBe('0.021');
    expect(pValueCell(0.0004)).toBe('<0.001');
    expect(differenceCell(-0.2, { low: -0.5, high: 0 })).toBe('-20 pp (-50, +0)');
    expect(differenceCell(1 / 3, null)).toBe('+33.3 pp');
    expect(differenceCell(null, null)).toBe('-');
  });
});
