import { describe, expect, it } from 'vitest';
import { foldCase } from '../../src/config/fold-case.js';
import { compileSafeRegex, regexProblem } from '../../src/config/safe-regex.js';
import { userSchemaProblem } from '../../src/config/user-schema-problem.js';
import { wildcardMatch } from '../../src/config/wildcard-match.js';
import { engineFetch } from '../../src/engine/engine-fetch.js';
import { withHttpMocks, type UnmatchedRequest } from '../../src/runner/mocks/http-mocks.js';
import { globToRegExp } from '../../src/runner/suite/glob.js';
import { compileErrorTokens, DEFAULT_ERROR_TOKENS, findErrorToken } from '../../src/verdicts/error-tokens.js';
import { toolNameMatcher, validateToolName } from '../../src/verdicts/tool-name.js';

// Inputs that stalled the event loop for minutes with backtracking regexes. No assertion on
// time: a stall runs into the test timeout, which is the failure.

describe('patterns never stall the run', () => {
  it('a mock URL with three wildcards against a 6,000-character id', async () => {
    const scope = { mocks: [{ url: 'https://shop.test/orders/*-*-*/items', json: { ok: true } }], passthroughOrigins: [], unmatched: [] as UnmatchedRequest[] };
    const long = '-'.repeat(6000);
    const answers = await withHttpMocks(scope, async () => {
      const miss = await engineFetch(`https://shop.test/orders/${long}/itemz`).then(
        () => 'answered',
        () => 'refused',
      );
      const hit = await engineFetch(`https://shop.test/orders/${long}/items`).then((response) => response.json());
      return { miss, hit };
    });
    expect(answers).toEqual({ miss: 'refused', hit: { ok: true } });
    expect(scope.unmatched).toEqual([{ request: `GET https://shop.test/orders/${long}/itemz`, hint: '' }]);
  });

  it('refuses a JSON Schema pattern that could backtrack exponentially, at load: Ajv would run it on model arguments', () => {
    const nested = userSchemaProblem({ type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } }, 'tool');
    expect(nested).toMatch(/^at properties\.id\.pattern, regular expression \/\^\(a\+\)\+\$\/ has a nested quantifier/);
    expect(userSchemaProblem({ type: 'object', patternProperties: { '^(x|x)*$': { type: 'string' } } })).toMatch(
      /^at patternProperties\.\^\(x\|x\)\*\$, regular expression .* repeats an alternation/,
    );
    // Lookarounds and data that only looks like a pattern stay accepted.
    expect(userSchemaProblem({ type: 'string', pattern: '^(?=.*\\d).{8,}$' })).toBeNull();
    expect(userSchemaProblem({ type: 'object', properties: { pattern: { type: 'string' } }, default: { pattern: '(a+)+' } })).toBeNull();
  });

  it('wildcards: literal text, any run, also empty', () => {
    expect(wildcardMatch('https://a.test/*', 'https://a.test/')).toBe(true);
    expect(wildcardMatch('https://a.test/*/x', 'https://a.test/1/2/x')).toBe(true);
    expect(wildcardMatch('*-*-*', 'a-b')).toBe(false);
    expect(wildcardMatch('*-*-*', '--')).toBe(true);
    expect(wildcardMatch('a.c', 'abc')).toBe(false);
    expect(wildcardMatch('https://shop.test/orders/*-*-*-*-*-*/items', `https://shop.test/orders/${'-'.repeat(6000)}/itemz`)).toBe(false);
  });

  it('a /regex/i tool name against a 12,000-character name', () => {
    const matcher = toolNameMatcher('/a*a*a*b/i');
    expect(matcher('A'.repeat(12_000))).toBe(false);
    expect(matcher('xAaAB')).toBe(true);
    expect(toolNameMatcher('/^Send_[a-c]+$/i')('SEND_abCB')).toBe(true);
    expect(toolNameMatcher('/^Send_[a-c]+$/i')('SEND_abd')).toBe(false);
  });

  it('refuses flags that turn off linear-time matching, at load', () => {
    expect(regexProblem('a', 'u')).toContain('flag "u" not supported');
    // A flag JavaScript does not know is named as a flag too, with the pattern as written.
    expect(regexProblem('create_.*', 'x')).toBe(
      'regular expression /create_.*/x: flag "x" not supported; use i, m and s (g and y are accepted and ignored; the others turn off linear-time matching)',
    );
    // g and y are accepted and ignored, as docs/verdicts.md says, and the message says so.
    expect(regexProblem('a', 'gy')).toBeNull();
    expect(toolNameMatcher('/^create_/g')('create_refund')).toBe(true);
    const matcher = toolNameMatcher('/^create_/gy');
    expect([matcher('create_refund'), matcher('create_refund')]).toEqual([true, true]);
    const locate = (_at: unknown, message: string) => new Error(message);
    expect(() => validateToolName('/send/v', ['tool'], locate as never)).toThrow(/flag "v" not supported/);
    expect(regexProblem('a', 'ims')).toBeNull();
  });

  it('refuses a flag given twice, an ignored one too, in its own words with the flags as written', () => {
    // JavaScript refuses `ii`; `gg` was accepted since g is dropped before compiling.
    expect(regexProblem('create_', 'ii')).toBe('regular expression /create_/ii: flag "i" given twice; give each flag once');
    expect(regexProblem('create_', 'gg')).toBe('regular expression /create_/gg: flag "g" given twice; give each flag once');
    expect(regexProblem('create_', 'igmi')).toBe('regular expression /create_/igmi: flag "i" given twice; give each flag once');
    const locate = (_at: unknown, message: string) => new Error(message);
    expect(() => validateToolName('/create_/gg', ['create_refund'], locate as never)).toThrow('regular expression /create_/gg: flag "g" given twice');
  });

  it('error tokens with <non-empty> on a 20,000-character result', () => {
    const text = ' '.repeat(20_000);
    expect(findErrorToken(text, compileErrorTokens(['<non-empty>:<non-empty>']))).toBeNull();
    expect(findErrorToken(`{"error": "${'a '.repeat(10_000)}`, compileErrorTokens(DEFAULT_ERROR_TOKENS))).toBeNull();
    expect(findErrorToken(`${' '.repeat(20_000)}{"error" : "denied"}`, compileErrorTokens(DEFAULT_ERROR_TOKENS))).toBe('"error" : "denied"');
  });

  it('suite globs run on the same path', () => {
    expect(globToRegExp('**/**/**/*.scenario.yaml').test(`${'a/'.repeat(3000)}x.scenario.yml`)).toBe(false);
  });
});

describe('the i flag as a case-folded pattern', () => {
  it('folds letters, classes and ranges, and keeps escapes and group names', () => {
    expect(foldCase('ab1')).toBe('[aA][bB]1');
    expect(foldCase('[a-cX_]')).toBe('[a-cX_A-Cx]');
    expect(foldCase('[^q]')).toBe('[^qQ]');
    expect(foldCase('\\w+\\x41(?<name>z)')).toBe('\\w+\\x41(?<name>[zZ])');
  });

  it('matches as the i flag does', () => {
    for (const [pattern, text] of [
      ['^get_Order$', 'GET_ORDER'],
      ['[a-f]+', 'XYZ'],
      ['[^a]', 'A'],
      ['Straße', 'STRAßE'],
    ]) {
      expect(compileSafeRegex(pattern, 'i').test(text), `${pattern} ${text}`).toBe(new RegExp(pattern, 'i').test(text));
    }
  });
});
