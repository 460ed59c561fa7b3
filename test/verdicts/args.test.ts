import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../src/config/assert-format.js';
import { matchArgs } from '../../src/verdicts/args/args-mode.js';
import { matchValue } from '../../src/verdicts/args/matchers.js';
import { formatMismatch } from '../../src/verdicts/args/mismatch.js';
import { standardizeString } from '../../src/verdicts/args/standardize.js';
import { validateExpectedArgs } from '../../src/verdicts/args/validate-expected.js';

const why = (expected: Record<string, unknown>, actual: unknown, mode: 'exact' | 'subset' | 'superset' | 'ignore') => {
  const mismatch = matchArgs(expected, actual, mode);
  return mismatch ? formatMismatch(mismatch) : null;
};

describe('args modes', () => {
  const expected = { order_id: '1234', reason: 'damaged' };

  it('exact: same names and values', () => {
    expect(why(expected, { order_id: '1234', reason: 'damaged' }, 'exact')).toBeNull();
    expect(why(expected, { order_id: '1234' }, 'exact')).toBe('argument "reason": missing (expected "damaged")');
    expect(why(expected, { order_id: '1234', reason: 'damaged', note: 'x' }, 'exact')).toBe('argument "note": not expected (got "x")');
    expect(why(expected, { order_id: '9', reason: 'damaged' }, 'exact')).toBe('argument "order_id": expected "1234", got "9"');
  });

  it("sees only an object's own keys: Object.prototype's members are missing, not present", () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      expect(why({ [key]: { $any: true } }, {}, 'superset'), key).toBe(`argument "${key}": missing (expected {"$any":true})`);
      expect(matchValue({ nested: { [key]: { $any: true } } }, { nested: {} }, 'a'), key).toMatchObject({ argument: `a.nested.${key}` });
    }
    expect(why({ toString: 'x' }, { toString: 'x' }, 'exact')).toBeNull();
  });

  it('subset: no unexpected argument, expected ones may be missing', () => {
    expect(why(expected, { order_id: '1234' }, 'subset')).toBeNull();
    expect(why(expected, {}, 'subset')).toBeNull();
    expect(why(expected, { order_id: '1234', extra: 1 }, 'subset')).toBe('argument "extra": not expected (got 1)');
    expect(why(expected, { reason: 'other' }, 'subset')).toBe('argument "reason": expected "damaged", got "other"');
  });

  it('superset: every expected argument present and matching, extras allowed', () => {
    expect(why(expected, { order_id: '1234', reason: 'damaged', extra: true }, 'superset')).toBeNull();
    expect(why(expected, { order_id: '1234', extra: true }, 'superset')).toBe('argument "reason": missing (expected "damaged")');
  });

  it('ignore: anything', () => {
    expect(why(expected, { nothing: 'alike' }, 'ignore')).toBeNull();
  });

  it('arguments that are not an object never match', () => {
    expect(why(expected, 'not json', 'exact')).toBe('arguments: expected an object of named arguments, got "not json"');
  });

  it('literals compare deeply, with exact keys in nested objects', () => {
    expect(why({ items: [{ sku: 'a', qty: 1 }] }, { items: [{ sku: 'a', qty: 1 }] }, 'exact')).toBeNull();
    expect(why({ items: [{ sku: 'a', qty: 1 }] }, { items: [{ sku: 'a', qty: 2 }] }, 'exact')).toBe('argument "items[0].qty": expected 1, got 2');
    expect(why({ items: [{ sku: 'a' }] }, { items: [{ sku: 'a', qty: 2 }] }, 'exact')).toBe('argument "items[0].qty": not expected (got 2)');
    expect(why({ n: 1 }, { n: true }, 'exact')).toBe('argument "n": expected 1, got true');
  });
});

describe('matchers', () => {
  const one = (expected: unknown, actual: unknown, present = true) => {
    const mismatch = matchValue(expected, actual, 'x', present);
    return mismatch ? formatMismatch(mismatch) : null;
  };

  it('$regex', () => {
    expect(one({ $regex: '^r\\d+$' }, 'r12')).toBeNull();
    expect(one({ $regex: '^r\\d+$' }, 'x12')).toBe('argument "x": expected a string matching /^r\\d+$/, got "x12"');
    expect(one({ $regex: '^1' }, 12)).toBe('argument "x": expected a string matching /^1/, got 12');
  });

  it('$range is closed', () => {
    expect(one({ $range: [1, 5] }, 1)).toBeNull();
    expect(one({ $range: [1, 5] }, 5)).toBeNull();
    expect(one({ $range: [1, 5] }, 5.5)).toBe('argument "x": expected a number in [1, 5], got 5.5');
    expect(one({ $range: [1, 5] }, '3')).toBe('argument "x": expected a number in [1, 5], got "3"');
  });

  it('$schema', () => {
    const schema = { $schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } };
    expect(one(schema, { id: 'a' })).toBeNull();
    expect(one(schema, { id: 3 })).toBe('argument "x": expected a value valid against the schema at id: expected string, got number 3');
  });

  it('$any: present, any value', () => {
    expect(one({ $any: true }, null)).toBeNull();
    expect(one({ $any: true }, undefined, false)).toBe('argument "x": missing (expected {"$any":true})');
  });

  it('matchers nest inside literals', () => {
    expect(one({ id: { $regex: '^o' }, n: 1 }, { id: 'o1', n: 1 })).toBeNull();
    expect(one({ id: { $regex: '^o' } }, { id: 'p1' })).toBe('argument "x.id": expected a string matching /^o/, got "p1"');
  });
});

describe('$one_of compares as the BFCL AST checker', () => {
  const one = (options: unknown[], actual: unknown, present = true) => {
    const mismatch = matchValue({ $one_of: options }, actual, 'x', present);
    return mismatch ? formatMismatch(mismatch) : null;
  };

  it('standardizes strings: case, spaces and ,./-_*^ do not count', () => {
    expect(standardizeString("April 1, 2024 - New_York/NY.*^'")).toBe('april12024newyorkny"');
    expect(one(['New York, NY'], 'new york ny')).toBeNull();
    expect(one(['2024-04-01'], '20240401')).toBeNull();
    expect(one(['New York'], 'Boston')).toBe('argument "x": expected one of ["New York"], got "Boston"');
  });

  it('accepts an integer for a float, never a string for a number or a boolean for a number', () => {
    expect(one([5.0], 5)).toBeNull();
    expect(one([2.5, 3], 3)).toBeNull();
    expect(one([5], '5')).toBe('argument "x": expected one of [5], got "5"');
    expect(one([1], true)).toBe('argument "x": expected one of [1], got true');
  });

  it('compares lists element by element, in order, strings standardized', () => {
    expect(one([['New York', 'LA']], ['new york', 'la'])).toBeNull();
    expect(one([[3, 5]], [5, 3])).toBe('argument "x[0]": expected 3, got 5');
    expect(
      one(
        [
          [3, 5],
          [5, 3],
        ],
        [5, 3],
      ),
    ).toBeNull();
    expect(one([[3, 5]], [3])).toBe('argument "x": expected one of [[3,5]], got [3]');
  });

  it('compares objects key by key, optional keys marked with ""', () => {
    const option = { name: { $one_of: ['John Doe'] }, email: { $one_of: ['jd@x.com', ''] } };
    expect(one([option], { name: 'john doe' })).toBeNull();
    expect(one([option], { name: 'John Doe', email: 'jd@x.com' })).toBeNull();
    expect(one([option], { email: 'jd@x.com' })).toBe('argument "x.name": missing (expected {"$one_of":["John Doe"]})');
    expect(one([option], { name: 'John Doe', age: 3 })).toBe('argument "x.age": not expected (got 3)');
    expect(one([option], { name: 'Jane' })).toBe('argument "x.name": expected one of ["John Doe"], got "Jane"');
  });

  it('"" means the argument may be omitted', () => {
    expect(one(['units', ''], undefined, false)).toBeNull();
    expect(one(['units'], undefined, false)).toBe('argument "x": missing (expected one of ["units"])');
    expect(matchArgs({ unit: { $one_of: ['units', ''] }, base: 10 }, { base: 10 }, 'exact')).toBeNull();
  });
});

describe('validateExpectedArgs', () => {
  const locate = memoryLocator('s.yaml', ['args']);
  const problem = (args: unknown) => {
    try {
      validateExpectedArgs(args, [], locate);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('accepts literals and well-formed matchers', () => {
    expect(
      problem({ a: 1, b: { $one_of: [1, ''] }, c: { $regex: '^x' }, d: { $range: [0, 1] }, e: { $schema: { type: 'string' } }, f: { $any: true } }),
    ).toBeNull();
  });

  it('names the bad matcher and its path', () => {
    expect(problem({ a: { $oneof: [1] } })).toBe(
      's.yaml at args.a.$oneof: unknown matcher "$oneof"; expected one of $one_of, $regex, $range, $schema, $any; did you mean "$one_of"?',
    );
    expect(problem({ a: { $one_of: [] } })).toContain('$one_of needs a non-empty list');
    expect(problem({ a: { $regex: '(a+)+' } })).toContain('nested quantifier');
    expect(problem({ a: { $range: [5, 1] } })).toContain('is empty: min is above max');
    expect(problem({ a: { $range: [1] } })).toContain('$range needs [min, max]');
    expect(problem({ a: { $schema: { type: 'strin' } } })).toContain('$schema is not a valid JSON Schema');
    expect(problem({ a: { $any: 1 } })).toContain('$any takes true');
    expect(problem({ a: { $regex: 'x', other: 1 } })).toContain('a matcher has exactly one key');
    expect(problem({ a: [{ deep: { $one_of: 'x' } }] })).toContain('at args.a[0].deep.$one_of: $one_of needs a non-empty list');
    expect(problem(['x'])).toContain('expected an object of argument name -> expected value');
  });

  it('reports every bad matcher in one pass, each at its path: in two arguments, in list items and nested keys', () => {
    expect(problem({ reason: { $range: ['a', 1] }, order_id: { $one_of: 5 }, items: [{ $regx: 'x' }, { n: { $any: 1 } }] })?.split('\n')).toEqual([
      's.yaml at args.reason.$range[0]: expected a number ($range needs [min, max], two numbers), got string "a"',
      's.yaml at args.order_id.$one_of: $one_of needs a non-empty list of acceptable values',
      expect.stringContaining('s.yaml at args.items[0].$regx: unknown matcher "$regx"'),
      's.yaml at args.items[1].n.$any: $any takes true ({$any: true})',
    ]);
  });
});
