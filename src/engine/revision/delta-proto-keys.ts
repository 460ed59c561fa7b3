import type { Locator } from '../../config/assert-format.js';
import { throwConfigErrors, type ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import type { Delta } from './types.js';

/**
 * A `__proto__` key in `set` (a value's key, or a segment of a dotted path) would be merged as
 * the object's prototype, not as a field: it would slip past the build's strict validation and
 * change what the build reads. Refused where it is written.
 */
export function refuseProtoKeys(delta: Delta, ownLocator: Locator): void {
  const problems: ConfigError[] = [];
  const refuse = (path: PathSegments) =>
    problems.push(ownLocator(path, 'a key named "__proto__" cannot be set: it would replace the prototype of the object, not set a field', true));
  const walk = (value: unknown, path: PathSegments): void => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
    else if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (key === '__proto__') refuse([...path, key]);
        else walk((value as Record<string, unknown>)[key], [...path, key]);
      }
    }
  };
  for (const key of Object.keys(delta.set ?? {})) {
    if (key === '__proto__' || key.split(/[.[\]]/).includes('__proto__')) refuse(['set', key]);
    else walk(delta.set?.[key], ['set', key]);
  }
  throwConfigErrors(problems);
}
