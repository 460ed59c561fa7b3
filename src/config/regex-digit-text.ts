import { atomEnd, groupBodyStart, quantifierAt } from './regex-syntax.js';

/*
 * Whether a user regex could match a whole number's text (one digit or more), judged from its
 * structure: a query `matches` on a number attribute that no digit text satisfies could never
 * match (docs/query-spans.md). Each one-character atom is asked of the regex engine itself, digit
 * by digit. Anchors and word boundaries are taken as met wherever they stand, with one exception:
 * a `^` before a `$` in one sequence holds the whole text between them, so something there must
 * take a digit (`^$` and `^\d{0}$` match the empty text only). A doubtful pattern is judged able
 * to match, never the other way round.
 */

const DIGITS = '0123456789';

/**
 * False only when no non-empty text made of digits alone holds a match of `pattern`, a regex
 * accepted by regexProblem (compiled without flags, no backreferences or lookarounds).
 */
export function couldMatchDigitText(pattern: string): boolean {
  return alternativesCouldMatch(pattern, 0, pattern.length);
}

/** Whether any top-level alternative of `pattern[start, end)` could match digits. */
function alternativesCouldMatch(pattern: string, start: number, end: number): boolean {
  return alternatives(pattern, start, end).some(([from, to]) => sequenceCouldMatch(pattern, from, to));
}

/** Whether some alternative of `pattern[start, end)` could match digits while taking one or more of them. */
function alternativesCouldTakeDigit(pattern: string, start: number, end: number): boolean {
  return alternatives(pattern, start, end).some(
    ([from, to]) => sequenceCouldMatch(pattern, from, to) && atoms(pattern, from, to).some((atom) => atomCouldTakeDigit(pattern, atom)),
  );
}

/** The [start, end) ranges of the top-level alternatives of `pattern[start, end)`. */
function alternatives(pattern: string, start: number, end: number): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let branchStart = start;
  for (let i = start; i < end; i = atomEnd(pattern, i)) {
    if (pattern[i] !== '|') continue;
    found.push([branchStart, i]);
    branchStart = i + 1;
  }
  found.push([branchStart, end]);
  return found;
}

/** One atom of a sequence: where it starts and stops, the repetitions its quantifier allows, whether it has one. */
interface Atom {
  start: number;
  stop: number;
  min: number;
  max: number;
  quantified: boolean;
}

/** The atoms of one alternative `pattern[start, end)`, each with its quantifier. */
function atoms(pattern: string, start: number, end: number): Atom[] {
  const found: Atom[] = [];
  for (let i = start; i < end;) {
    const stop = escapeEnd(pattern, i) ?? atomEnd(pattern, i);
    const { length, min, max } = quantifierAt(pattern, stop);
    found.push({ start: i, stop, min, max, quantified: length > 0 });
    i = stop + length;
  }
  return found;
}

/**
 * Whether every atom of one alternative could match digits (an atom that may repeat 0 times
 * always can), and, when a `^` comes before a `$`, an atom between them could take a digit: the
 * text between the two is the whole text, never empty.
 */
function sequenceCouldMatch(pattern: string, start: number, end: number): boolean {
  const sequence = atoms(pattern, start, end);
  if (sequence.some((atom) => atom.min > 0 && !atomCouldMatch(pattern, atom.start, atom.stop))) return false;
  const isAnchor = (atom: Atom, anchor: string) => !atom.quantified && pattern.slice(atom.start, atom.stop) === anchor;
  const first = sequence.findIndex((atom) => isAnchor(atom, '^'));
  const last = sequence.findLastIndex((atom) => isAnchor(atom, '$'));
  if (first < 0 || last < first) return true;
  return sequence.slice(first + 1, last).some((atom) => atomCouldTakeDigit(pattern, atom));
}

/** Whether `atom` could take one digit or more: it may repeat, and it is no anchor or boundary. */
function atomCouldTakeDigit(pattern: string, atom: Atom): boolean {
  if (atom.max === 0) return false;
  const text = pattern.slice(atom.start, atom.stop);
  if (text === '^' || text === '$' || text === '\\b' || text === '\\B' || /^\(\?<?[=!]/.test(text)) return false;
  if (text.startsWith('(')) {
    const bodyStart = text.startsWith('(?') ? groupBodyStart(pattern, atom.start) : atom.start + 1;
    return alternativesCouldTakeDigit(pattern, bodyStart, atom.stop - 1);
  }
  return atomCouldMatch(pattern, atom.start, atom.stop);
}

/** Whether the atom `pattern[start, stop)` could match digits. */
function atomCouldMatch(pattern: string, start: number, stop: number): boolean {
  const atom = pattern.slice(start, stop);
  if (atom === '^' || atom === '$' || atom === '\\b' || atom === '\\B') return true;
  if (atom.startsWith('(')) {
    if (/^\(\?<?[=!]/.test(atom)) return true;
    const bodyStart = atom.startsWith('(?') ? groupBodyStart(pattern, start) : start + 1;
    return alternativesCouldMatch(pattern, bodyStart, stop - 1);
  }
  try {
    const single = new RegExp(`^(?:${atom})$`);
    return [...DIGITS].some((digit) => single.test(digit));
  } catch {
    return true;
  }
}

/**
 * Where an escape longer than two characters ends (`\x30`, `\u0030` and `\060` are all "0"),
 * which atomEnd would cut after its letter; undefined for any other atom.
 */
function escapeEnd(pattern: string, i: number): number | undefined {
  if (pattern[i] !== '\\') return undefined;
  const escape = /^\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|c[A-Za-z]|0[0-7]{0,2})/.exec(pattern.slice(i, i + 6));
  return escape ? i + escape[0].length : undefined;
}
