import { checkFormat, type ShownPathLocator } from '../../config/assert-format.js';
import { collectConfigErrors, type ConfigError } from '../../config/errors.js';
import { isPathKey, parseDeltaPath, setEntryPath } from './delta-path.js';
import { protoKeyProblems, withoutProtoKeys } from './delta-proto-keys.js';
import type { Delta } from './types.js';

/** A delta's own problems, and the `set` it can be applied with when its format is sound. */
export interface DeltaOwnProblems {
  problems: ConfigError[];
  /** With no format problem: `set` without its refused `__proto__` keys (undefined when the delta has none). */
  set?: { value: Record<string, unknown> | undefined };
}

/**
 * Every problem a delta has without a build, in one pass (docs/cli.md, validate): its format
 * (`schema`: unknown keys, types), each `__proto__` key in `set`, and with `paths` the syntax of
 * each path it writes. One does not hide another: an unknown key or a wrong-typed `remove` item
 * leaves the other parts checked.
 */
export function deltaOwnProblems(delta: unknown, ownLocator: ShownPathLocator, schema: object, paths: boolean): DeltaOwnProblems {
  const format = checkFormat<Delta>(schema, delta, ownLocator);
  if (!format.typed([])) return { problems: format.errors };
  const problems = [...format.errors];
  const { set, remove } = format.value;
  const soundSet = set !== undefined && format.valid(['set']) ? set : undefined;
  if (soundSet) problems.push(...protoKeyProblems(soundSet, ownLocator));
  if (paths) {
    for (const key of Object.keys(soundSet ?? {})) {
      if (isPathKey(key)) collectConfigErrors(problems, () => parseDeltaPath(key, (message) => ownLocator(setEntryPath(key), message, true)));
    }
    if (Array.isArray(remove) && format.typed(['remove'])) {
      remove.forEach((path, index) => {
        if (format.valid(['remove', index])) collectConfigErrors(problems, () => parseDeltaPath(path, (message) => ownLocator(['remove', index], message)));
      });
    }
  }
  if (format.errors.length) return { problems };
  return { problems, set: { value: soundSet && withoutProtoKeys(soundSet) } };
}
