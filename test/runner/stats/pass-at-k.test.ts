import { describe, expect, it } from 'vitest';
import { passAtK, passHatK } from '../../../src/runner/stats/pass-at-k.js';

describe('pass@k (Chen et al. 2021) and pass^k (tau-bench)', () => {
  it('pass@k = 1 - C(n-c,k)/C(n,k) on hand-computed cases', () => {
    // n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10 = 0.7
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 12);
    // n=10, c=3, k=1: 1 - C(7,1)/C(10,1) = 1 - 7/10 = 0.3 (pass@1 is the pass rate)
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
    // n=10, c=3, k=5: 1 - C(7,5)/C(10,5) = 1 - 21/252 = 0.916666...
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12);
    // n=4, c=2, k=3: fewer than k failures, so every draw of 3 holds a pass: 1
    expect(passAtK(4, 2, 3)).toBe(1);
    // no passes: 0
    expect(passAtK(3, 0, 2)).toBe(0);
  });

  it('pass@1 is exactly the pass rate, as pass^1 is (report.json compares equal)', () => {
    for (const [n, c] of [
      [5, 2],
      [10, 3],
      [7, 1],
      [3, 3],
    ]) {
      expect(passAtK(n, c, 1)).toBe(c / n);
      expect(passAtK(n, c, 1)).toBe(passHatK(n, c, 1));
    }
  });

  it('pass^k = C(c,k)/C(n,k) on hand-computed cases', () => {
    // n=5, c=2, k=2: C(2,2)/C(5,2) = 1/10
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 12);
    // n=10, c=3, k=1: 3/10
    expect(passHatK(10, 3, 1)).toBeCloseTo(0.3, 12);
    // n=8, c=6, k=3: C(6,3)/C(8,3) = 20/56
    expect(passHatK(8, 6, 3)).toBeCloseTo(20 / 56, 12);
    // c < k: 0; c = n: 1
    expect(passHatK(4, 2, 3)).toBe(0);
    expect(passHatK(3, 3, 3)).toBe(1);
  });

  it('refuses k outside 1..n', () => {
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
    expect(() => passHatK(3, 1, 0)).toThrow(RangeError);
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
  });
});
