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
});
