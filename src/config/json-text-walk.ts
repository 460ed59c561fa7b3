import type { PathSegments } from './format-path.js';

/** What walkJsonText calls on the way; `path` is live (copy it to keep it). */
export interface JsonTextVisitor {
  /** Each key of an object at the offset of its opening quote, at its own path; `object` stands for its object (one per object). */
  key?(key: string, offset: number, path: PathSegments, object: object): void;
  /** Each number literal as written, at its offset and path. */
  number?(literal: string, offset: number, path: PathSegments): void;
}

const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Walks a JSON text JSON.parse accepted, following its containers, for the checks JSON.parse
 * leaves no trace of (a key given twice, a number rounded): the text is scanned, not the value.
 */
export function walkJsonText(text: string, visitor: JsonTextVisitor): void {
  // One entry per open container: the current key of an object, the current index of an array.
  const path: Array<string | number> = [];
  // One entry per open container: a token for an object, null for an array.
  const objects: Array<object | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      // Skip the string, escapes included.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (expectKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        path[path.length - 1] = key;
        expectKey = false;
        visitor.key?.(key, start, path, objects[objects.length - 1] as object);
      }
    } else if (char === '{' || char === '[') {
      objects.push(char === '{' ? {} : null);
      path.push(char === '[' ? 0 : '');
      expectKey = char === '{';
    } else if (char === '}' || char === ']') {
      objects.pop();
      path.pop();
    } else if (char === ',') {
      if (objects[objects.length - 1] === null) (path[path.length - 1] as number)++;
      else expectKey = true;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      JSON_NUMBER.lastIndex = i;
      const match = JSON_NUMBER.exec(text);
      if (!match) continue;
      visitor.number?.(match[0], i, path);
      i += match[0].length - 1;
    }
  }
}
