import { createHash } from 'node:crypto';
import { setOwn } from './own-key.js';

/** JSON with object keys sorted, so equal values always give equal text (for hashes and matching). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** Short sha256 of the canonical JSON of a value. */
export function hashValue(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // setOwn: a `__proto__` key is hashed and matched like any other, never dropped.
    for (const key of Object.keys(value).sort()) setOwn(out, key, sortKeys((value as Record<string, unknown>)[key]));
    return out;
  }
  return value;
}
