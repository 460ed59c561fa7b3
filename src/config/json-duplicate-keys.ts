import type { PathSegments } from './format-path.js';
import { walkJsonText } from './json-text-walk.js';

/**
 * Every key that appears again in one object of a JSON text, with the offset and path of each
 * repeat. JSON.parse keeps the last of two equal keys without a word; a strict JSON file must not
 * mean something other than what a reader sees (docs/formats.md). Run only on text JSON.parse accepted.
 */
export function duplicateJsonKeys(text: string): Array<{ key: string; offset: number; path: PathSegments }> {
  const found: Array<{ key: string; offset: number; path: PathSegments }> = [];
  // Each object's keys so far.
  const seen = new WeakMap<object, Set<string>>();
  walkJsonText(text, {
    key(key, offset, path, object) {
      let keys = seen.get(object);
      if (!keys) seen.set(object, (keys = new Set()));
      if (keys.has(key)) found.push({ key, offset, path: [...path] });
      keys.add(key);
    },
  });
  return found;
}
