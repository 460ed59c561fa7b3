import { describe, expect, it } from 'vitest';
import { grepMatcher } from '../../../src/runner/suite/grep-matcher.js';

describe('--grep: text or regular expression', () => {
  it('selects a pasted name as plain text, regex characters and all, case-insensitive', () => {
    expect(grepMatcher('refund (urgent)')('a.scenarios.yaml#refund (urgent)')).toBe(true);
    expect(grepMatcher('price is $5.00 + tax')('price is $5.00 + tax')).toBe(true);
    expect(grepMatcher('REFUND (Urgent)')('refund (urgent)')).toBe(true);
    expect(grepMatcher('refund (urgent)')('refund (later)')).toBe(false);
  });

  it('still reads the text as a regular expression: alternatives, anchors, case-insensitive', () => {
    expect(grepMatcher('refund|cancel')('cancel order')).toBe(true);
    expect(grepMatcher('^smoke/')('smoke/a.scenario.yaml#x')).toBe(true);
    expect(grepMatcher('^smoke/')('other/smoke/a.scenario.yaml#x')).toBe(false);
    expect(grepMatcher('A.C')('abc')).toBe(true);
  });

  it('matches text that is no valid expression as text only, never throwing', () => {
    const unbalanced = grepMatcher('refund (urg');
    expect(unbalanced('refund (urgent)')).toBe(true);
    expect(unbalanced('refund urgent')).toBe(false);
    expect(grepMatcher('[x')('a [x] b')).toBe(true);
  });

  it('matches an expression that could backtrack without bound as text only, so it never stalls the run', () => {
    // 31 characters: the backtracking engine would take minutes on /(a+)+$/ here.
    const name = `${'a'.repeat(30)}!`;
    expect(grepMatcher('(a+)+$')(name)).toBe(false);
    expect(grepMatcher('(a+)+$')('x (a+)+$ y')).toBe(true);
    expect(grepMatcher('(a|a)*b')(name)).toBe(false);
  });

  it('keeps lookarounds and backreferences working, on the backtracking engine', () => {
    expect(grepMatcher('^(?!slow)')('fast one')).toBe(true);
    expect(grepMatcher('^(?!slow)')('slow one')).toBe(false);
    expect(grepMatcher('(ab)\\1')('xababx')).toBe(true);
  });
});
