import { isDeepStrictEqual } from 'node:util';
import { quoteCapped } from '../../config/cap-text.js';
import { ConfigError, RunError } from '../../config/errors.js';
import { setOwn } from '../../config/own-key.js';
import { formatPath } from '../../config/source.js';
import { isPlainObject } from './delta.js';
import { isPathKey, parseDeltaPath } from './delta-path.js';
import type { AgentBuild, Delta } from './types.js';

type Json = Record<string, unknown>;

/**
 * The deltas applied in turn to `base`, giving `ran`, as one delta of the same effect
 * (docs/external-agents.md, The http engine): applied to `base` it gives `ran`, even where one
 * delta removes a value and a later one sets it again (a single delta's `set` applies before
 * its `remove`, so joining their `remove`s would remove it). Its `set` holds, as `ran` has them,
 * every value a delta set that is still there and every other value that differs from `base`;
 * its `remove` every key of `base` that `ran` lacks. Null when no delta was applied.
 */
export function mergedDelta(base: AgentBuild, ran: AgentBuild, deltas: readonly Delta[]): Delta | null {
  if (!deltas.length) return null;
  const set: Json = {};
  // What each delta wrote, so an engine that applies the delta to its own defaults still gets a
  // value a delta set to what the build file already had.
  for (const delta of deltas) for (const path of writtenPaths(delta.set ?? {})) copyAt(set, ran as unknown as Json, path);
  const remove: string[] = [];
  differences(base as unknown as Json, ran as unknown as Json, [], set, remove);
  return { ...(Object.keys(set).length ? { set } : {}), ...(remove.length ? { remove } : {}) };
}

/**
 * The key paths a delta's `set` writes: each leaf of its nested objects, and for a path key
 * (`external.config.units`, `agent.tools[name=x].description`) its keys up to the first list
 * selector, where the whole list is what a merged `set` can write.
 */
function writtenPaths(set: Json): string[][] {
  const paths: string[][] = [];
  const leaves = (value: unknown, path: string[]): void => {
    const keys = isPlainObject(value) ? Object.keys(value) : [];
    if (!keys.length) paths.push(path);
    for (const key of keys) leaves((value as Json)[key], [...path, key]);
  };
  for (const [key, value] of Object.entries(set)) {
    if (!isPathKey(key)) {
      leaves(value, [key]);
      continue;
    }
    // The delta was applied, so its paths parse.
    const segments = parseDeltaPath(key, (message) => new ConfigError({ file: '<delta>' }, message));
    const keys: string[] = [];
    for (const segment of segments) {
      if (segment.kind !== 'key') break;
      keys.push(segment.key);
    }
    if (keys.length === segments.length) leaves(value, keys);
    else paths.push(keys);
  }
  return paths;
}

/** Copies into `set` the value `ran` has at `path`, or at the first step of it that is not an object; nothing when `ran` lacks it. */
function copyAt(set: Json, ran: Json, path: readonly string[]): void {
  let value: unknown = ran;
  const walked: string[] = [];
  for (const key of path) {
    if (!isPlainObject(value)) break;
    if (!Object.hasOwn(value, key)) return;
    value = value[key];
    walked.push(key);
  }
  if (walked.length) setAt(set, walked, value);
}

/** Writes `value` at `path` in the nested `set`; a step that already holds a whole value (not an object) has it already. */
function setAt(set: Json, path: readonly string[], value: unknown): void {
  let node = set;
  for (const key of path.slice(0, -1)) {
    if (!Object.hasOwn(node, key)) setOwn<unknown>(node, key, {});
    const next = node[key];
    if (!isPlainObject(next)) return;
    node = next;
  }
  setOwn<unknown>(node, path[path.length - 1], structuredClone(value));
}

/**
 * Adds to `set` what `ran` has that `base` does not (a `set` deep-merges objects and replaces
 * anything else, lists whole) and to `remove` the keys of `base` that `ran` lacks.
 */
function differences(base: Json, ran: Json, path: string[], set: Json, remove: string[]): void {
  for (const key of Object.keys(ran)) {
    const [before, after] = [Object.hasOwn(base, key) ? base[key] : undefined, ran[key]];
    if (isPlainObject(before) && isPlainObject(after)) differences(before, after, [...path, key], set, remove);
    else if (!Object.hasOwn(base, key) || !isDeepStrictEqual(before, after)) setAt(set, [...path, key], after);
  }
  for (const key of Object.keys(base)) {
    if (Object.hasOwn(ran, key)) continue;
    // A remove path is dotted keys: a key holding ".", "[" or "]" cannot be named in one.
    if (!key || /[.[\]]/.test(key)) {
      throw new RunError(
        'DELTA_NOT_SENDABLE',
        `the deltas applied cannot be sent as one merged delta: they remove ${formatPath([...path, key])}, and a remove path cannot name the key ${quoteCapped(key)} (a key holding ".", "[" or "]"); give the key a name without them`,
      );
    }
    remove.push([...path, key].join('.'));
  }
}
