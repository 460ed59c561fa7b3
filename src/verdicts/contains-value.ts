import { isPlainObject } from './args/json-value.js';
import { matchValue } from './args/matchers.js';

/**
 * "contains" for resolved-config and state values: a substring of a string; an item of a
 * list (deep equality, matchers allowed, or a listed object whose `name` is the string:
 * `tools` contains `lookup_order`); a key of an object.
 */
export function containsValue(container: unknown, expected: unknown): boolean {
  if (typeof container === 'string') return typeof expected === 'string' && container.includes(expected);
  if (Array.isArray(container)) {
    return container.some((item) => matchValue(expected, item, '') === null || (typeof expected === 'string' && isPlainObject(item) && item.name === expected));
  }
  if (isPlainObject(container)) return typeof expected === 'string' && Object.hasOwn(container, expected);
  return false;
}
