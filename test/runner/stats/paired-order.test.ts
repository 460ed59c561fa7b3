import { describe, expect, it } from 'vitest';
import type { ScenarioRow } from '../../../src/runner/report/report.js';
import { pairedComparison } from '../../../src/runner/stats/paired-comparison.js';

/** Twelve scenarios whose outcomes differ per scenario, so resampling order shows in the interval. */
function rows(): ScenarioRow[] {
  const base = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1];
  const lean = [1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1];
  const out: ScenarioRow[] = [];
  base.forEach((pass, i) => {
    for (const [variant, outcome] of [
      ['base', pass],
      ['lean', lean[i]],
    ] as const) {
      out.push({
        id: `s.scenarios.yaml#case ${String(i).padStart(2, '0')}`,
        name: `case ${i}`,
        file: 's.scenarios.yaml',
        variant,
        repeat: 0,
        tags: [],
        status: outcome ? 'pass' : 'fail',
        reason: '',
        test_run: null,
        checks: [],
        turns: 1,
        duration_ms: 1,
        error: null,
      });
    }
  });
  return out;
}

describe('pairedComparison', () => {
  it('gives the same bootstrap interval whatever order the rows come in (merged shards)', () => {
    const forward = pairedComparison(rows(), 'base', 'lean');
    const reversed = pairedComparison(rows().reverse(), 'base', 'lean');
    const interleaved = pairedComparison(
      rows().sort((a, b) => (a.id.slice(-1) < b.id.slice(-1) ? -1 : 1)),
      'base',
      'lean',
    );
    expect(forward.difference_ci).not.toBeNull();
    expect(forward.difference_ci!.low).toBeLessThan(forward.difference_ci!.high);
    expect(reversed.difference_ci).toEqual(forward.difference_ci);
    expect(interleaved.difference_ci).toEqual(forward.difference_ci);
  });

  it('draws scenarios as statistics.md describes: ids in code-unit order, one mulberry32(20240607), index floor(u * m)', () => {
    // Ids whose code-unit order (row 0, row 1, row 10, row 11, row 2, ...) is not their number order.
    const outcomes = Array.from({ length: 12 }, (_, i) => [i % 3 === 0 ? 1 : 0, i % 4 === 0 ? 0 : 1]);
    const all = rows().map((row) => {
      const i = Number(row.id.slice(-2));
      const pass = outcomes[i][row.variant === 'base' ? 0 : 1];
      return { ...row, id: `s.scenarios.yaml#row ${i}`, status: pass ? ('pass' as const) : ('fail' as const) };
    });
    // The documented procedure, written out on its own.
    const ids = [...new Set(all.map((row) => row.id))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(ids.slice(0, 4)).toEqual(['s.scenarios.yaml#row 0', 's.scenarios.yaml#row 1', 's.scenarios.yaml#row 10', 's.scenarios.yaml#row 11']);
    const deltas = ids.map((id) => outcomes[Number(id.split(' ').at(-1))]).map(([base, lean]) => lean - base);
    let state = 20240607;
    const next = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    const differences = Array.from({ length: 2000 }, () => {
      let delta = 0;
      for (let i = 0; i < ids.length; i++) delta += deltas[Math.floor(next() * ids.length)];
      return delta / ids.length;
    }).sort((a, b) => a - b);
    expect(pairedComparison(all, 'base', 'lean').difference_ci).toEqual({ low: differences[49], high: differences[1949] });
  });
});
