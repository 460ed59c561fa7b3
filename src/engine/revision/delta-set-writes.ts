import type { PathSegments, ShownPath } from '../../config/source.js';
import { setEntryPath } from './delta-path.js';

/** Where one `set` entry wrote in the build: its key in `set`, the build path it wrote and the value. */
export interface SetWrite {
  key: string;
  buildPath: PathSegments;
  value: unknown;
}

/** The last `set` entry that put `buildPath` into the merged build (its index in `writes`, and its place in the delta), if any. */
function lastWrite(writes: readonly SetWrite[], buildPath: PathSegments): { index: number; place: ShownPath } | undefined {
  for (let i = writes.length - 1; i >= 0; i--) {
    const { key, buildPath: written, value } = writes[i];
    if (written.length > buildPath.length || written.some((segment, index) => segment !== buildPath[index])) continue;
    const rest = buildPath.slice(written.length);
    if (hasPath(value, rest)) return { index: i, place: [...setEntryPath(key), ...rest] };
  }
  return undefined;
}

/**
 * The path in the delta (`['set', key, ...]`) of the value that put `buildPath` into the merged
 * build, or undefined when no `set` entry wrote it. The last entry that wrote there wins, as it
 * did when they applied; a path key's place is named as written, `set` then the key
 * (`agent.tools[name=lookup]`), not by the index it resolved to.
 */
export function placeInSet(writes: readonly SetWrite[], buildPath: PathSegments): ShownPath | undefined {
  return lastWrite(writes, buildPath)?.place;
}

/**
 * Of the calls that make a cycle (their build paths, before any removal), the index of the one
 * the delta wrote last (it closed the cycle; of two one entry wrote, the first), or undefined
 * when `set` wrote none of them.
 */
export function closingCall(writes: readonly SetWrite[], calls: readonly PathSegments[]): number | undefined {
  let closing: { call: number; write: number } | undefined;
  calls.forEach((call, index) => {
    const write = lastWrite(writes, call)?.index;
    if (write !== undefined && (!closing || write > closing.write)) closing = { call: index, write };
  });
  return closing?.call;
}

/** Whether `value` holds something at `path` (plain keys and indices). */
function hasPath(value: unknown, path: PathSegments): boolean {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return false;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return true;
}
