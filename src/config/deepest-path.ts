import type { PathSegments } from './source.js';

/** The path to the first value nested deeper than `max` (iteratively, so depth cannot overflow the stack), or null. */
export function deepestPath(root: unknown, max: number): PathSegments | null {
  interface Entry {
    value: unknown;
    depth: number;
    key: string | number;
    parent: Entry | null;
  }
  const stack: Entry[] = [{ value: root, depth: 0, key: '', parent: null }];
  while (stack.length) {
    const entry = stack.pop() as Entry;
    const { value, depth } = entry;
    if (!value || typeof value !== 'object') continue;
    if (depth >= max) {
      const path: Array<string | number> = [];
      for (let at: Entry | null = entry; at?.parent; at = at.parent) path.unshift(at.key);
      return path;
    }
    if (Array.isArray(value)) value.forEach((item, index) => stack.push({ value: item, depth: depth + 1, key: index, parent: entry }));
    else for (const key of Object.keys(value)) stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, key, parent: entry });
  }
  return null;
}
