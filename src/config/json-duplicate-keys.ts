/**
 * Every key that appears again in one object of a JSON text, with the offset of each repeat.
 * JSON.parse keeps the last of two equal keys without a word; a strict JSON file must not mean
 * something other than what a reader sees (docs/formats.md). Run only on text JSON.parse accepted.
 */
export function duplicateJsonKeys(text: string): Array<{ key: string; offset: number }> {
  const found: Array<{ key: string; offset: number }> = [];
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const top = stack[stack.length - 1];
      if (top && expectKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (top.has(key)) found.push({ key, offset: start });
        top.add(key);
        expectKey = false;
      }
    } else if (char === '{') {
      stack.push(new Set());
      expectKey = true;
    } else if (char === '[') {
      stack.push(null);
    } else if (char === '}' || char === ']') {
      stack.pop();
    } else if (char === ',') {
      expectKey = stack[stack.length - 1] instanceof Set;
    }
  }
  return found;
}
