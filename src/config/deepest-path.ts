import type { PathSegments } from './source.js';

/**
 * The path to the first value nested deeper than `max`, or null. Recursive, but never deeper
 * than `max` + 1 calls: it stops at that depth. No path is built unless one is returned (a
 * suite's files hold many thousands of values).
 */
export function deepestPath(root: unknown, max: number): PathSegments | null {
  const path: Array<string | number> = [];
  const tooDeep = (value: unknown, depth: number): boolean => {
    if (!value || typeof value !== 'object') return false;
    if (depth >= max) return true;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        path.push(index);
        if (tooDeep(value[index], depth + 1)) return true;
        path.pop();
      }
    } else {
      for (const key of Object.keys(value)) {
        path.push(key);
        if (tooDeep((value as Record<string, unknown>)[key], depth + 1)) return true;
        path.pop();
      }
    }
    return false;
  };
  return tooDeep(root, 0) ? path : null;
}
