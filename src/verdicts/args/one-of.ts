import { show } from '../describe.js';
import { childPath, type Mismatch } from './mismatch.js';
import { isMatcher, isPlainObject } from './json-value.js';
import { standardizeString } from './standardize.js';

/** Matches a nested expected value that may be a matcher (passed in to keep files acyclic). */
export type NestedMatch = (expected: unknown, actual: unknown, path: string, present: boolean) => Mismatch | null;

/**
 * `{$one_of: [...]}` as the BFCL AST checker compares: the value must equal one option, where
 * strings compare standardized, numbers by value (so an integer is accepted for a float),
 * lists element by element in order, and objects key by key (a key the option lacks is
 * unexpected; a key the value lacks must be optional). `""` among the options means the
 * argument may be omitted.
 */
export function oneOfMismatch(options: readonly unknown[], actual: unknown, path: string, present: boolean, match: NestedMatch): Mismatch | null {
  if (!present) {
    return options.includes('') ? null : { argument: path, message: `missing (expected one of ${show(options)})` };
  }
  let only: Mismatch | null = null;
  const real = options.filter((option) => option !== '');
  for (const option of options) {
    const mismatch = bfclMismatch(option, actual, path, match);
    if (!mismatch) return null;
    if (real.length === 1 && option === real[0]) only = mismatch;
  }
  // With one structured option, the nested difference says more than the whole value.
  if (only && only.argument !== path) return only;
  return { argument: path, message: `expected one of ${show(options)}, got ${show(actual)}` };
}

/** True when optional: an expected value that may be left out. */
export function allowsAbsence(expected: unknown): boolean {
  if (!isPlainObject(expected)) return false;
  const options = expected.$one_of;
  return Array.isArray(options) && options.includes('');
}

function bfclMismatch(option: unknown, actual: unknown, path: string, match: NestedMatch): Mismatch | null {
  const fail: Mismatch = { argument: path, message: `expected ${show(option)}, got ${show(actual)}` };
  if (isMatcher(option)) return match(option, actual, path, true);
  if (typeof option === 'string') {
    return typeof actual === 'string' && standardizeString(actual) === standardizeString(option) ? null : fail;
  }
  if (Array.isArray(option)) {
    if (!Array.isArray(actual) || actual.length !== option.length) return fail;
    for (let i = 0; i < option.length; i++) {
      const mismatch = bfclMismatch(option[i], actual[i], childPath(path, i), match);
      if (mismatch) return mismatch;
    }
    return null;
  }
  if (isPlainObject(option)) {
    if (!isPlainObject(actual)) return fail;
    for (const key of Object.keys(actual)) {
      if (!Object.hasOwn(option, key)) return { argument: childPath(path, key), message: `not expected (got ${show(actual[key])})` };
    }
    for (const [key, expected] of Object.entries(option)) {
      if (!Object.hasOwn(actual, key)) {
        if (allowsAbsence(expected)) continue;
        return { argument: childPath(path, key), message: `missing (expected ${show(expected)})` };
      }
      const mismatch = bfclMismatch(expected, actual[key], childPath(path, key), match);
      if (mismatch) return mismatch;
    }
    return null;
  }
  return actual === option ? null : fail;
}
