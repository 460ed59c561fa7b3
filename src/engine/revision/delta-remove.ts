import type { PathSegments } from '../../config/source.js';

/** What one `remove` path names: its container and its key (or index) there. */
export interface RemovalTarget {
  parent: unknown;
  key: string | number;
}

/** The targets with each item once: two paths naming one item would otherwise remove it and then its neighbour. */
export function distinctTargets<T extends RemovalTarget>(targets: readonly T[]): T[] {
  return targets.filter((target, i) => targets.findIndex((other) => other.parent === target.parent && other.key === target.key) === i);
}

/** The path an element of a build had before a delta's removals, given its path after them. */
export type PathBeforeRemoval = (path: PathSegments) => PathSegments;

/**
 * Removes what the targets name from `root`, in place; per list, items go last-index-first so
 * earlier removals do not shift later ones. Returns where each element left in `root` sat before:
 * removing `agent.tools[1]` moves the tool at `agent.tools[2]` to `agent.tools[1]`, and a problem
 * found there is still the one a `set` through `agent.tools[name=...]` wrote at index 2.
 */
export function removeTargets(root: unknown, targets: readonly RemovalTarget[]): PathBeforeRemoval {
  const removedFrom = new Map<unknown[], number[]>();
  for (const { parent, key } of targets) {
    if (Array.isArray(parent) && typeof key === 'number') removedFrom.set(parent, [...(removedFrom.get(parent) ?? []), key]);
    else delete (parent as Record<string, unknown>)[key as string];
  }
  for (const [list, indices] of removedFrom) {
    indices.sort((a, b) => a - b);
    for (const index of [...indices].reverse()) list.splice(index, 1);
  }
  // Lists are followed by identity, the same objects before and after: only spliced lists shift.
  return (path) => {
    let current: unknown = root;
    return path.map((segment) => {
      const removed = Array.isArray(current) ? removedFrom.get(current) : undefined;
      const before = removed && typeof segment === 'number' ? indexBeforeRemoval(segment, removed) : segment;
      current = typeof current === 'object' && current !== null ? (current as Record<string | number, unknown>)[segment] : undefined;
      return before;
    });
  };
}

/** The index an item now at `index` had before the items at `removed` (ascending, original indices) went. */
function indexBeforeRemoval(index: number, removed: readonly number[]): number {
  let before = index;
  for (const gone of removed) {
    if (gone > before) break;
    before++;
  }
  return before;
}
