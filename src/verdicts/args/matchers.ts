import { compileUserSchema, userSchemaProblems } from '../../config/json-schema.js';
import { formatPath } from '../../config/source.js';
import { compileSafeRegex, testCapped } from '../../spans/query-regex.js';
import { show } from '../describe.js';
import { childPath, type Mismatch } from './mismatch.js';
import { ownValue } from '../../config/own-key.js';
import { isMatcher, isPlainObject } from './json-value.js';
import { oneOfMismatch } from './one-of.js';

/** The matcher keys an expected value may use (docs/verdicts.md). */
export const MATCHER_KEYS = ['$one_of', '$regex', '$range', '$schema', '$any'] as const;

const regexCache = new Map<string, RegExp>();

/**
 * Matches an actual value against an expected one: a matcher, or a literal compared by deep
 * equality in which nested matchers may appear. `present` is false when the argument is
 * absent (`actual` is then undefined). Returns null on a match, else the first difference.
 */
export function matchValue(expected: unknown, actual: unknown, path: string, present = true): Mismatch | null {
  if (isMatcher(expected)) return matchMatcher(expected, actual, path, present);
  if (!present) return { argument: path, message: `missing (expected ${show(expected)})` };
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return { argument: path, message: `expected ${show(expected)}, got ${show(actual)}` };
    }
    for (let i = 0; i < expected.length; i++) {
      const mismatch = matchValue(expected[i], actual[i], childPath(path, i));
      if (mismatch) return mismatch;
    }
    return null;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return { argument: path, message: `expected an object ${show(expected)}, got ${show(actual)}` };
    for (const [key, value] of Object.entries(expected)) {
      const mismatch = matchValue(value, ownValue(actual, key), childPath(path, key), Object.hasOwn(actual, key));
      if (mismatch) return mismatch;
    }
    for (const key of Object.keys(actual)) {
      if (!Object.hasOwn(expected, key)) return { argument: childPath(path, key), message: `not expected (got ${show(actual[key])})` };
    }
    return null;
  }
  return actual === expected ? null : { argument: path, message: `expected ${show(expected)}, got ${show(actual)}` };
}

function matchMatcher(matcher: Record<string, unknown>, actual: unknown, path: string, present: boolean): Mismatch | null {
  const [key, param] = Object.entries(matcher)[0];
  if (key === '$one_of') return oneOfMismatch(param as unknown[], actual, path, present, matchValue);
  if (!present) return { argument: path, message: `missing (expected ${show(matcher)})` };
  switch (key) {
    case '$any':
      return null;
    case '$regex': {
      const pattern = String(param);
      let regex = regexCache.get(pattern);
      if (!regex) regexCache.set(pattern, (regex = compileSafeRegex(pattern)));
      return typeof actual === 'string' && testCapped(regex, actual)
        ? null
        : { argument: path, message: `expected a string matching /${pattern}/, got ${show(actual)}` };
    }
    case '$range': {
      const [min, max] = param as [number, number];
      return typeof actual === 'number' && actual >= min && actual <= max
        ? null
        : { argument: path, message: `expected a number in [${min}, ${max}], got ${show(actual)}` };
    }
    case '$schema': {
      const schema = param as object;
      if (compileUserSchema(schema)(actual)) return null;
      const problem = userSchemaProblems(schema, actual)[0];
      const where = problem && problem.path.length ? ` at ${formatPath(problem.path)}` : '';
      return { argument: path, message: `expected a value valid against the schema${where}: ${problem?.expected ?? 'invalid'}` };
    }
    default:
      return { argument: path, message: `unknown matcher ${key}` };
  }
}
