import { show } from '../describe.js';
import { ownValue } from '../../config/own-key.js';
import { isPlainObject } from './json-value.js';
import { matchValue } from './matchers.js';
import type { Mismatch } from './mismatch.js';
import { allowsAbsence } from './one-of.js';

/** How a call's arguments are compared with the expected ones (docs/verdicts.md). */
export const ARGS_MODES = ['exact', 'subset', 'superset', 'ignore'] as const;
/** An argument mode name. */
export type ArgsMode = (typeof ARGS_MODES)[number];

/**
 * Compares a call's arguments with the expected ones under a mode:
 * - `exact`: same names and values (an argument whose `$one_of` holds `""` may be left out);
 * - `subset`: no unexpected argument; an expected one may be missing;
 * - `superset`: every expected argument present and matching; extras allowed;
 * - `ignore`: anything.
 * Returns null on a match, else the first differing argument. No `expected` matches anything.
 */
export function matchArgs(expected: Record<string, unknown> | undefined, actual: unknown, mode: ArgsMode): Mismatch | null {
  if (mode === 'ignore' || expected === undefined) return null;
  const args = actual === undefined || actual === null ? {} : actual;
  if (!isPlainObject(args)) return { argument: '', message: `expected an object of named arguments, got ${show(actual)}` };
  if (mode !== 'superset') {
    for (const key of Object.keys(args)) {
      if (!Object.hasOwn(expected, key)) return { argument: key, message: `not expected (got ${show(args[key])})` };
    }
  }
  for (const [key, value] of Object.entries(expected)) {
    const present = Object.hasOwn(args, key);
    if (!present && (mode === 'subset' || allowsAbsence(value))) continue;
    const mismatch = matchValue(value, ownValue(args, key), key, present);
    if (mismatch) return mismatch;
  }
  return null;
}
