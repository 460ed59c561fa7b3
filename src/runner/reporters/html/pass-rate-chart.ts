import type { VariantStatistics } from '../../stats/stats-types.js';
import { dataAttrs, esc } from './escape.js';
import { fmtInterval, fmtPercent } from './format.js';

const LABEL_W = 150;
const PLOT_W = 440;
const TEXT_W = 170;
const ROW_H = 30;
const AXIS_H = 26;

/**
 * Per-variant pass rates as an SVG dot chart: a faint bar from 0 to the rate, a dot at the rate
 * and whiskers for the 95% Wilson interval. Dots rather than bars alone because the interval is
 * the point: two variants whose whiskers overlap are not clearly different.
 */
export function passRateChart(variants: ReadonlyArray<[name: string, stats: VariantStatistics | undefined]>): string {
  const x = (p: number) => LABEL_W + p * PLOT_W;
  const width = LABEL_W + PLOT_W + TEXT_W;
  const height = variants.length * ROW_H + AXIS_H;
  const rows = variants.map(([name, s], i) => {
    const y = i * ROW_H;
    const mid = y + ROW_H / 2;
    const rate = s?.pass_rate ?? null;
    const ci = s?.pass_rate_ci ?? null;
    const attrs = dataAttrs({
      variant: name,
      'pass-rate': rate,
      'ci-low': ci?.low ?? null,
      'ci-high': ci?.high ?? null,
      runs: s?.runs ?? 0,
      passed: s?.passed ?? 0,
    });
    const label = `${fmtPercent(rate)} (${s?.passed ?? 0}/${s?.runs ?? 0})`;
    const tip = `${name}: ${label}, 95% CI ${fmtInterval(ci)}`;
    let marks = '';
    if (rate !== null) {
      marks += `<rect class="bar" x="${LABEL_W}" y="${y + 7}" width="${(x(rate) - LABEL_W).toFixed(2)}" height="${ROW_H - 14}"/>`;
      if (ci) {
        const [lo, hi] = [x(ci.low).toFixed(2), x(ci.high).toFixed(2)];
        marks += `<line class="whisker" x1="${lo}" x2="${hi}" y1="${mid}" y2="${mid}"/>`;
        marks += `<line class="whisker" x1="${lo}" x2="${lo}" y1="${mid - 6}" y2="${mid + 6}"/><line class="whisker" x1="${hi}" x2="${hi}" y1="${mid - 6}" y2="${mid + 6}"/>`;
      }
      marks += `<circle class="dot" cx="${x(rate).toFixed(2)}" cy="${mid}" r="5"/>`;
    }
    return (
      `<g class="variant"${attrs}><title>${esc(tip)}</title>` +
      `<text x="${LABEL_W - 10}" y="${mid + 4}" text-anchor="end">${esc(clipLabel(name))}</text>${marks}` +
      `<text class="value" x="${LABEL_W + PLOT_W + 12}" y="${mid + 4}">${esc(label)}</text></g>`
    );
  });
  const axisY = variants.length * ROW_H + 4;
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (p) => `<line class="axis" x1="${x(p)}" x2="${x(p)}" y1="0" y2="${axisY}"/><text x="${x(p)}" y="${axisY + 16}" text-anchor="middle">${p * 100}%</text>`,
    )
    .join('');
  return (
    `<svg class="pass-rates" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Pass rate per variant with 95% Wilson intervals">` +
    `${ticks}${rows.join('')}</svg>`
  );
}

function clipLabel(name: string): string {
  return name.length > 22 ? `${name.slice(0, 21)}…` : name;
}
