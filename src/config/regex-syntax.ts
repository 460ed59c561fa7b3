/** Reading a regular expression's source: where its atoms, classes, groups and quantifiers end. */

/** Where the atom that starts at `i` ends: an escape, a class, a group or one character. */
export function atomEnd(body: string, i: number): number {
  if (body[i] === '\\') return i + 2;
  if (body[i] === '[') return skipClass(body, i);
  if (body[i] === '(') return closingParen(body, i) + 1;
  return i + 1;
}

/** The index of the `)` that closes the group opened at `open` (the last index when none does). */
export function closingParen(body: string, open: number): number {
  let depth = 0;
  for (let i = open; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '[') i = skipClass(body, i) - 1;
    else if (body[i] === '(') depth++;
    else if (body[i] === ')' && --depth === 0) return i;
  }
  return body.length - 1;
}

/** Where the body of the `(?` group opened at `open` starts. */
export function groupBodyStart(pattern: string, open: number): number {
  // (?:  (?=  (?!  (?<=  (?<!  (?<name>
  const rest = pattern.slice(open + 2);
  if (rest.startsWith('<=') || rest.startsWith('<!')) return open + 4;
  if (rest.startsWith('<')) return pattern.indexOf('>', open) + 1;
  return open + 3;
}

/** The index just past the character class opened at `open`. */
export function skipClass(pattern: string, open: number): number {
  let i = open + 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1;
}

/**
 * The quantifier at `at` (if any): its length, whether it allows more than one repetition, and
 * the fewest and most repetitions it allows (1 and 1 when there is none).
 */
export function quantifierAt(pattern: string, at: number): { length: number; repeats: boolean; min: number; max: number } {
  const ch = pattern[at];
  let length = 0;
  let min = 1;
  let max = 1;
  if (ch === '*' || ch === '+') {
    length = 1;
    min = ch === '*' ? 0 : 1;
    max = Infinity;
  } else if (ch === '?') {
    length = 1;
    min = 0;
  } else if (ch === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (match) {
      length = match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    }
  }
  if (length && pattern[at + length] === '?') length++;
  return { length, repeats: max > 1, min, max };
}
