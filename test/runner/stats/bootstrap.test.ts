import { describe, expect, it } from 'vitest';
import { bootstrapDifference } from '../../../src/runner/stats/bootstrap.js';
import { mulberry32 } from '../../../src/runner/stats/mulberry32.js';

describe('mulberry32', () => {
  it('reproduces the reference generator', () => {
    // From an independent Python port of bryc's JavaScript reference (imul emulated with
    // 32-bit masking); mulberry32(1)'s first value, 0.6270739405881613, is the one usually quoted.
    const one = mulberry32(1);
    expect([one(), one(), one()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
    const zero = mulberry32(0);
    expect([zero(), zero(), zero()]).toEqual([0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]);
  });
});

describe('bootstrapDifference', () => {
  it('gives [0, 0] when every pair is equal', () => {
    const clusters = [
      { pairs: 3, base_passes: 3, variant_passes: 3 },
      { pairs: 3, base_passes: 0, variant_passes: 0 },
      { pairs: 2, base_passes: 1, variant_passes: 1 },
    ];
    expect(bootstrapDifference(clusters)).toEqual({ low: 0, high: 0 });
  });

  it('gives [d, d] when every scenario moves by the same rate d', () => {
    // Each scenario: variant passes every pair, base none: every resample has difference 1.
    expect(
      bootstrapDifference([
        { pairs: 2, base_passes: 0, variant_passes: 2 },
        { pairs: 1, base_passes: 0, variant_passes: 1 },
      ]),
    ).toEqual({ low: 1, high: 1 });
  });

  it('finds the known interval of a two-scenario resampling distribution', () => {
    // Scenario A: +1 on its one pair; scenario B: 0. Drawing 2 of {A, B} with replacement:
    // AA -> 1 (p 1/4), AB or BA -> 0.5 (p 1/2), BB -> 0 (p 1/4). Both ends hold far more than
    // 2.5% of 2,000 resamples (about 500 each), so the 2.5th percentile is 0 and the 97.5th is 1.
    const clusters = [
      { pairs: 1, base_passes: 0, variant_passes: 1 },
      { pairs: 1, base_passes: 0, variant_passes: 0 },
    ];
    expect(bootstrapDifference(clusters)).toEqual({ low: 0, high: 1 });
  });

  it('is reproducible for a seed and has no interval without pairs', () => {
    const clusters = Array.from({ length: 12 }, (_, i) => ({ pairs: 3, base_passes: i % 4, variant_passes: (i * 7) % 4 }));
    expect(bootstrapDifference(clusters)).toEqual(bootstrapDifference(clusters));
    expect(bootstrapDifference(clusters, { seed: 1 })).toEqual(bootstrapDifference(clusters, { seed: 1 }));
    expect(bootstrapDifference([])).toBeNull();
    expect(bootstrapDifference([{ pairs: 0, base_passes: 0, variant_passes: 0 }])).toBeNull();
  });
});
