import { matchArgs, type ArgsMode } from './args-mode.js';
import { isMatcher, isPlainObject } from './json-value.js';
import { matchValue } from './matchers.js';
import type { Mismatch } from './mismatch.js';

/**
 * Compares a whole expected value (a tool result, a request body) with an actual one: an
 * expected object is compared key by key under `mode` as `args_mode` compares arguments
 * (superset: the listed keys must match, others may be there), so a result can be checked
 * without its random ids; any other expected value is matched whole (literal or matcher).
 */
export function matchDocument(expected: unknown, actual: unknown, mode: Exclude<ArgsMode, 'ignore'> = 'superset'): Mismatch | null {
  if (isPlainObject(expected) && isPlainObject(actual) && !isMatcher(expected)) return matchArgs(expected, actual, mode);
  return matchValue(expected, actual, '');
}

/** A mismatch as a reason clause: `at order.id: expected ...`, or the message alone at the top. */
export function describeMismatch(mismatch: Mismatch): string {
  return `${mismatch.argument ? `at ${mismatch.argument}: ` : ''}${mismatch.message}`;
}
