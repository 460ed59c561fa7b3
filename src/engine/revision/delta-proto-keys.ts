import type { ShownPathLocator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import type { ShownPath } from '../../config/source.js';
import { setEntryPath } from './delta-path.js';

/** A `set` key that is `__proto__` or a dotted path with a `__proto__` segment. */
function isProtoKey(key: string): boolean {
  return key === '__proto__' || key.split(/[.[\]]/).includes('__proto__');
}

/**
 * A `__proto__` key in `set` (a value's key, or a segment of a dotted path) would be merged as
 * the object's prototype, not as a field: it would slip past the build's strict validation and
 * change what the build reads. Each is refused where it is written.
 */
export function protoKeyProblems(set: Record<string, unknown>, ownLocator: ShownPathLocator): ConfigError[] {
  const problems: ConfigError[] = [];
  const refuse = (path: ShownPath) =>
    problems.push(ownLocator(path, 'a key named "__proto__" cannot be set: it would replace the prototype of the object, not set a field', true));
  const walk = (value: unknown, path: ShownPath): void => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
    else if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (key === '__proto__') refuse([...path, key]);
        else walk((value as Record<string, unknown>)[key], [...path, key]);
      }
    }
  };
  for (const key of Object.keys(set)) {
    if (isProtoKey(key)) refuse(setEntryPath(key));
    else walk(set[key], setEntryPath(key));
  }
  return problems;
}

/** `set` without its `__proto__` keys (refused by protoKeyProblems), so the rest can be applied and checked beside them. */
export function withoutProtoKeys(set: Record<string, unknown>): Record<string, unknown> {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (key !== '__proto__') out[key] = strip(item);
    return out;
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(set)) if (!isProtoKey(key)) out[key] = strip(value);
  return out;
}
