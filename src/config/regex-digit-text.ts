import { atomEnd, groupBodyStart, quantifierAt } from './regex-syntax.js';

/*
 * Whether a user regex could match a whole number's text (digits only), judged from its
 * structure: a query `matches` on a number attribute that no digit text satisfies could never
 * match (docs/query-spans.md). Each one-character atom is asked of the regex engine itself, digit
 * by digit; anchors and word boundaries are taken as always met, so a doubtful pattern is judged
 * able to match, never the other way round.
 */

const DIGITS = '0123456789';

/**
 * False only when no text made of digits alone (nor the empty text) holds a match of `pattern`,
 * a regex accepted by regexProblem (compiled without flags, no backreferences or lookarounds).
 */
export function couldMatchDigitText(pattern: string): boolean {
  return alternativesCouldMatch(pattern, 0, pattern.length);
}

/** Whether any top-level alternative of `pattern[start, end)` could match digits. */
function alternativesCouldMatch(pattern: string, start: number, end: number): boolean {
  let branchStart = start;
  for (let i = start; i < end; i = atomEnd(pattern, i)) {
    if (pattern[i] !== '|') continue;
    if (sequenceCouldMatch(pattern, branchStart, i)) return true;
    branchStart = i + 1;
  }
  return sequenceCouldMatch(pattern, branchStart, end);
}

/** Whether every atom of one alternative could match digits (an atom that may repeat 0 times always can). */
function sequenceCouldMatch(pattern: string, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const stop = escapeEnd(pattern, i) ?? atomEnd(pattern, i);
    const quantifier = quantifierAt(pattern, stop);
    if (minimumRepeats(pattern.slice(stop, stop + quantifier.length)) > 0 && !atomCouldMatch(pattern, i, stop)) return false;
    i = stop + quantifier.length;
  }
  return true;
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

/** The fewest repetitions a quantifier (as written, possibly empty) allows. */
function minimumRepeats(quantifier: string): number {
  if (quantifier === '') return 1;
  if (quantifier.startsWith('*') || quantifier.startsWith('?')) return 0;
  if (quantifier.startsWith('+')) return 1;
  return Number(/^\{(\d+)/.exec(quantifier)?.[1] ?? 1);
}
