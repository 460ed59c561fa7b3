import { describe, expect, it } from 'vitest';
import { MAX_REGEX_INPUT, compileSafeRegex, parseSlashRegex, regexProblem, testCapped } from '../../src/spans/query-regex.js';

describe('regexProblem', () => {
  it.each(['(a+)+', '(a*)*b', '(\\w+\\s?)+$', '((ab)+)*', '(a{2,})+', '(?:x+y?)*', '(?<n>a+)+', '(x\\w+)*', '(_(\\w+))*'])(
    'refuses nested quantifiers: %s',
    (pattern) => {
      expect(regexProblem(pattern)).toContain('nested quantifier');
    },
  );

  it.each(['(a|a)*', '(a|ab)+', '(.|x)*', '(\\w|_)+', '(\\d|1)*'])('refuses repeated overlapping alternations: %s', (pattern) => {
    expect(regexProblem(pattern)).toContain('alternation whose branches can match the same text');
  });

  it.each([
    '^create_',
    'a+b+',
    '(foo|bar)+',
    '(\\d|x)*',
    '(ab)+',
    '[a-z]+(_[a-z]+)*',
    '(a+)?',
    '(a+){1}',
    'x{2,5}',
    '\\(a+\\)+',
    '[(]a+[)]+',
    '(,\\d+)*',
    '(-[a-z0-9]+)+',
  ])('accepts safe patterns: %s', (pattern) => {
    expect(regexProblem(pattern)).toBeNull();
  });

  it('reports invalid patterns', () => {
    expect(regexProblem('(')).toMatch(/^invalid regular expression \/\(\/: /);
  });

  it('compileSafeRegex throws on unsafe patterns', () => {
    expect(() => compileSafeRegex('(a+)+')).toThrow(/nested quantifier/);
  });
});

describe('testCapped', () => {
  it('tests only the first MAX_REGEX_INPUT characters', () => {
    const text = `${'a'.repeat(MAX_REGEX_INPUT)}needle`;
    expect(testCapped(/needle/, text)).toBe(false);
    expect(testCapped(/^a+$/, text)).toBe(true);
  });

  it('ignores lastIndex left by a global regex', () => {
    const regex = /a/g;
    expect(testCapped(regex, 'a')).toBe(true);
    expect(testCapped(regex, 'a')).toBe(true);
  });
});

describe('parseSlashRegex', () => {
  it('reads /pattern/flags and leaves plain names alone', () => {
    expect(parseSlashRegex('/^send_/i')).toEqual({ pattern: '^send_', flags: 'i' });
    expect(parseSlashRegex('send_email')).toBeNull();
    // Every letter after the closing slash is a flag, whatever its case or alphabet, for regexProblem to refuse.
    expect(parseSlashRegex('/lookup/I')).toEqual({ pattern: 'lookup', flags: 'I' });
    expect(parseSlashRegex('/lookup/iI')).toEqual({ pattern: 'lookup', flags: 'iI' });
    expect(parseSlashRegex('/lookup/é')).toEqual({ pattern: 'lookup', flags: 'é' });
    expect(parseSlashRegex('/lookup/1')).toBeNull();
  });
});
