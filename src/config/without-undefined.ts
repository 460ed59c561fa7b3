import { setOwn } from './own-key.js';

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A copy of plain data without keys whose value is undefined (callers spread optional fields). */
export function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (!isObject(value) || (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)) return value;
  const out: Record<string, unknown> = {};
  // setOwn: a `__proto__` key is copied as a key, so the schema sees (and refuses) it where it is written.
  for (const [key, item] of Object.entries(value)) if (item !== undefined) setOwn(out, key, withoutUndefined(item));
  return out;
}
