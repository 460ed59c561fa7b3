import { atomEnd, groupBodyStart, quantifierAt } from './regex-syntax.js';

/*
 * Whether a user regex could match a whole number's text (one digit or more), judged from its
 * structure: a query `matches` on a number attribute that no digit text satisfies could never
 * match (docs/query-spans.md). Each one-character atom is asked of the regex engine itself, digit
 * by digit. The regex is followed through the positions a match can stand at in a text of digits:
 * its start, between two digits, its end (never both: the text is not empty). `^` holds at the
 * start, `$` at the end, `\b` at either, `\B` between two digits, wherever they stand: in a group
 * (`^(?:$)`), one after the other (`$^`). The positions are a few, so what a regex may reach is
 * judged whole; a part it cannot read (a lookaround, an unknown escape) is taken as able to match
 * and to take a digit or not, so a pattern that can match is never judged unable to.
 */

const DIGITS = '0123456789';

/** Where in a non-empty text of digits a match may stand, as bits of a mask. */
const START = 1;
const BETWEEN = 2;
const END = 4;
const ANYWHERE = START | BETWEEN | END;

/**
 * False only when no non-empty text made of digits alone holds a match of `pattern`, a regex
 * accepted by regexProblem (compiled without flags, no backreferences or lookarounds).
 */
export function couldMatchDigitText(pattern: string): boolean {
  // A match may start anywhere and end anywhere: any end it can reach is a match.
  return alternativesReach(pattern, 0, pattern.length, ANYWHERE) !== 0;
}

/** The positions a match of some top-level alternative of `pattern[start, end)` may end at, from `from`. */
function alternativesReach(pattern: string, start: number, end: number, from: number): number {
  let reached = 0;
  for (const [first, last] of alternatives(pattern, start, end)) reached |= sequenceReach(pattern, first, last, from);
  return reached;
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

/** One atom of a sequence: where it starts and stops, and the repetitions its quantifier allows. */
interface Atom {
  start: number;
  stop: number;
  min: number;
  max: number;
}

/** The atoms of one alternative `pattern[start, end)`, each with its quantifier. */
function atoms(pattern: string, start: number, end: number): Atom[] {
  const found: Atom[] = [];
  for (let i = start; i < end;) {
    const stop = escapeEnd(pattern, i) ?? atomEnd(pattern, i);
    const { length, min, max } = quantifierAt(pattern, stop);
    found.push({ start: i, stop, min, max });
    i = stop + length;
  }
  return found;
}

/** The positions the alternative `pattern[start, end)` may end at, its atoms matched in turn from `from`. */
function sequenceReach(pattern: string, start: number, end: number, from: number): number {
  let reached = from;
  for (const atom of atoms(pattern, start, end)) {
    if (reached === 0) return 0;
    reached = repeatedReach((positions) => atomReach(pattern, atom, positions), atom, reached);
  }
  return reached;
}

/**
 * The positions `step` (one repetition of `atom`) may end at, repeated from `from` as many times
 * as its quantifier allows: at least `min` times, then more while they reach further.
 */
function repeatedReach(step: (positions: number) => number, atom: Atom, from: number): number {
  let reached = timesReach(step, atom.min, from);
  for (let more = atom.min; more < atom.max; more++) {
    const grown: number = reached | step(reached);
    if (grown === reached) break;
    reached = grown;
  }
  return reached;
}

/**
 * The positions `step` repeated exactly `times` times may end at, from `from`. There are 8 masks
 * only: a long run (`\d{1000}`) is cut short where the positions come round again.
 */
function timesReach(step: (positions: number) => number, times: number, from: number): number {
  const seen = [from];
  while (seen.length <= times) {
    const next = step(seen[seen.length - 1]);
    const first = seen.indexOf(next);
    if (first >= 0) return seen[first + ((times - first) % (seen.length - first))];
    seen.push(next);
  }
  return seen[times];
}

/** The positions one match of `atom` (its quantifier aside) may end at, from `from`. */
function atomReach(pattern: string, atom: Atom, from: number): number {
  const text = pattern.slice(atom.start, atom.stop);
  if (text === '^') return from & START;
  if (text === '$') return from & END;
  if (text === '\\b') return from & (START | END);
  if (text === '\\B') return from & BETWEEN;
  // A lookaround takes no text; what it asks is not judged.
  if (/^\(\?<?[=!]/.test(text)) return from;
  if (text.startsWith('(')) {
    const bodyStart = text.startsWith('(?') ? groupBodyStart(pattern, atom.start) : atom.start + 1;
    return alternativesReach(pattern, bodyStart, atom.stop - 1, from);
  }
  const takesDigit = oneCharacterTakesDigit(text);
  if (takesDigit === false) return 0;
  const taken = from & (START | BETWEEN) ? BETWEEN | END : 0;
  return takesDigit ? taken : from | taken;
}

/** Whether the one-character atom `atom` matches some digit; undefined when the engine cannot say alone. */
function oneCharacterTakesDigit(atom: string): boolean | undefined {
  try {
    const single = new RegExp(`^(?:${atom})$`);
    return [...DIGITS].some((digit) => single.test(digit));
  } catch {
    return undefined;
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
