import { describe, expect, it } from 'vitest';
import { compileSafeRegex, MAX_REGEX_INPUT, regexProblem, testCapped } from '../../src/config/safe-regex.js';
import { regexProblem as viaSpans } from '../../src/spans/query-regex.js';

describe('user regex rules (src/config/safe-regex.ts)', () => {
  it.each([
    ['(?=a)a*b', 'lookaround (?=...)'],
    ['x(?!y)', 'lookaround (?!...)'],
    ['(?<=a)b', 'lookaround (?<=...)'],
    ['(?<!a)b', 'lookaround (?<!...)'],
    ['(a*)b*\\1c', 'backreference \\1'],
    ['(?<n>a)\\k<n>', 'backreference \\k<...>'],
  ])('refuses %s: it could backtrack without bound', (pattern, what) => {
    expect(regexProblem(pattern)).toBe(`regular expression /${pattern}/ uses a ${what}, which can backtrack without bound; rewrite the pattern without it`);
  });

  it.each(['(?<name>a+)b', '[\\1(?=]x', '\\\\1', 'a\\(?=b', '(?:ab)+c'])('does not mistake %s for a lookaround or backreference', (pattern) => {
    expect(regexProblem(pattern)).toBeNull();
  });

  it.each(['^(\\d{1,3}\\.){3}\\d{1,3}$', '^([a-z]+,)*[a-z]+$', '(\\w+-)+\\w+'])(
    'accepts %s: each repetition ends with a literal its repeated parts cannot match, so it splits one way',
    (pattern) => {
      expect(regexProblem(pattern)).toBeNull();
    },
  );

  it.each(['(a+a)+', '(\\d+\\d)+', '(.+,)+x'])('still refuses %s, whose last character a repeated part matches too', (pattern) => {
    expect(regexProblem(pattern)).toContain('nested quantifier');
  });

  it('keeps the spans path working (re-export)', () => {
    expect(viaSpans('(a+)+')).toContain('nested quantifier');
  });

  it('runs polynomial patterns in linear time once compiled as user patterns', () => {
    // Without the fallback the first of these alone backtracks for hours: the test's timeout catches it.
    const text = 'a'.repeat(MAX_REGEX_INPUT);
    expect(testCapped(compileSafeRegex('a*a*a*a*b'), text)).toBe(false);
    expect(testCapped(compileSafeRegex('^(?:a|b)*a*a*c$'), text)).toBe(false);
    expect(testCapped(compileSafeRegex('\\w*\\w*\\w*!', 'm'), `${text}\n${text}`)).toBe(false);
  });
});
