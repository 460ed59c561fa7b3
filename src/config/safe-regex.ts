import { createRequire } from 'node:module';
import { capEchoed } from './cap-text.js';
import { foldCase } from './fold-case.js';

/**
 * User-supplied regular expressions (query `matches`, `$regex`, `output.matches`, `/tool/`
 * names, and the `pattern` of the grep and find_files built-ins) run inside the harness, so a
 * pattern must not be able to hang a run (docs/security.md). Three layers:
 * - JavaScript's backtracking engine goes exponential on nested quantifiers (`(a+)+`) and on
 *   repeated alternations whose branches overlap (`(a|a)*`); both are refused when the
 *   pattern is validated.
 * - Polynomial shapes (`a*a*a*b`) are not refused but bounded: compiled patterns run with V8's
 *   linear-time engine as a fallback once a match backtracks too much. That engine cannot run
 *   backreferences, lookarounds or the `u` flag, so those are refused too (as RE2 does), and
 *   `i` is compiled as a case-folded pattern. Patterns the harness builds (mock URL wildcards,
 *   error tokens, suite globs) take the same path (`compileHarnessRegex`).
 * - The text tested is capped at MAX_REGEX_INPUT characters.
 */

/** Longest text a user regex is tested against; longer text is cut (documented in docs/verdicts.md). */
export const MAX_REGEX_INPUT = 10_000;

/** Why `pattern` is unsafe or invalid, or null when it may be used. */
export function regexProblem(pattern: string, flags = ''): string | null {
  // Flags first: a flag JavaScript does not know would otherwise be reported by V8 as a broken pattern.
  const badFlags = [...new Set(flags.replace(/[ims]/g, ''))].join('');
  if (badFlags)
    return `regular expression /${capEchoed(pattern)}/${flags}: flag${badFlags.length > 1 ? 's' : ''} "${badFlags}" not supported; use only i, m and s (the others turn off linear-time matching)`;
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    // V8's message repeats the pattern ("Invalid regular expression: /(/: Unterminated group"): keep the reason only.
    const message = (error as Error).message;
    const reason = message.includes('/: ') ? message.slice(message.lastIndexOf('/: ') + 3) : message.replace(/^Invalid regular expression: /, '');
    return `invalid regular expression /${capEchoed(pattern)}/: ${reason}`;
  }
  const unsupported = unboundedConstruct(pattern);
  if (unsupported) return `regular expression /${capEchoed(pattern)}/ uses ${unsupported}, which can backtrack without bound; rewrite the pattern without it`;
  return exponentialRegexProblem(pattern);
}

/**
 * Why `pattern` could backtrack exponentially (nested quantifiers, overlapping repeated
 * alternatives), or null: the one rule also held to patterns that keep the backtracking
 * engine, such as a JSON Schema `pattern` (docs/security.md).
 */
export function exponentialRegexProblem(pattern: string): string | null {
  const risk = backtrackingRisk(pattern);
  return risk ? `regular expression /${capEchoed(pattern)}/ ${risk}; rewrite it without repeating a repeated part` : null;
}

/**
 * Compiles a pattern already accepted by `regexProblem`, with the linear-time fallback on. The
 * `i` flag, which that engine does not take, is compiled as a case-folded pattern instead.
 */
export function compileSafeRegex(pattern: string, flags = ''): RegExp {
  const problem = regexProblem(pattern, flags);
  if (problem) throw new Error(problem);
  return compileHarnessRegex(flags.includes('i') ? foldCase(pattern) : pattern, flags.replace('i', ''));
}

/**
 * Compiles a pattern the harness built itself (mock URLs, error tokens, suite globs) on the same
 * linear-time path as user patterns: no backreferences or lookarounds, no `i` or `u` flag.
 */
export function compileHarnessRegex(source: string, flags = ''): RegExp {
  const unsupported = unboundedConstruct(source) ?? (/[iuvd]/.test(flags) ? `the flags ${flags}` : null);
  if (unsupported) throw new Error(`internal: /${source}/ uses ${unsupported}, which the linear-time engine cannot run`);
  enableLinearFallback();
  return new RegExp(source, flags);
}

let linearFallback = false;

/**
 * Lets V8 switch a regex that backtracks excessively to its linear-time engine (V8 >= 8.8;
 * patterns without backreferences and lookarounds, flags other than `i` and `u`), so a
 * polynomial pattern on 10,000 characters takes milliseconds instead of hours. A process-wide
 * V8 flag, set once before the first user pattern is compiled; it changes no match result.
 */
function enableLinearFallback(): void {
  if (linearFallback) return;
  linearFallback = true;
  // node:v8 is loaded here, not at start-up: most commands never compile a user pattern.
  (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}

/** The first backreference or lookaround in `pattern` (outside character classes), described, or null. */
function unboundedConstruct(pattern: string): string | null {
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '[') {
      i = skipClass(pattern, i) - 1;
    } else if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) return `a backreference \\${next}${next === 'k' ? '<...>' : ''}`;
      i++;
    } else if (ch === '(' && /^\(\?(=|!|<=|<!)/.test(pattern.slice(i, i + 4))) {
      return `a lookaround ${/^\(\?<?[=!]/.exec(pattern.slice(i, i + 4))?.[0]}...)`;
    }
  }
  return null;
}

/** Tests a compiled user regex against at most MAX_REGEX_INPUT characters of `text`. */
export function testCapped(regex: RegExp, text: string): boolean {
  regex.lastIndex = 0;
  return regex.test(text.length > MAX_REGEX_INPUT ? text.slice(0, MAX_REGEX_INPUT) : text);
}

/** `/body/flags` written as a string (tool names, tokens): the pattern and flags, else null. */
export function parseSlashRegex(text: string): { pattern: string; flags: string } | null {
  const match = /^\/(.+)\/([a-z]*)$/s.exec(text);
  return match ? { pattern: match[1], flags: match[2] } : null;
}

interface Group {
  /** Index in the pattern of the group's first body character. */
  start: number;
  hasQuantifier: boolean;
  /** Start offsets of the group's top-level alternatives. */
  branches: number[];
}

/** A description of the exponential-backtracking shape found in `pattern`, or null. */
export function backtrackingRisk(pattern: string): string | null {
  const stack: Group[] = [{ start: 0, hasQuantifier: false, branches: [0] }];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === '[') {
      i = skipClass(pattern, i);
      continue;
    }
    if (ch === '(') {
      const bodyStart = pattern.startsWith('(?', i) ? groupBodyStart(pattern, i) : i + 1;
      stack.push({ start: bodyStart, hasQuantifier: false, branches: [bodyStart] });
      i = bodyStart;
      continue;
    }
    if (ch === '|') {
      stack[stack.length - 1].branches.push(i + 1);
      i++;
      continue;
    }
    if (ch === ')' && stack.length > 1) {
      const group = stack.pop()!;
      const quant = quantifierAt(pattern, i + 1);
      if (quant.repeats) {
        const body = pattern.slice(group.start, i);
        if (group.hasQuantifier && (group.branches.length > 1 || !(startsWithDelimiter(body) || endsWithDelimiter(body)))) {
          return 'has a nested quantifier (a repeated group that itself repeats), which can backtrack exponentially';
        }
        const branches = group.branches.map((start, index) => pattern.slice(start, index + 1 < group.branches.length ? group.branches[index + 1] - 1 : i));
        if (branchesOverlap(branches)) return 'repeats an alternation whose branches can match the same text, which can backtrack exponentially';
      }
      const parent = stack[stack.length - 1];
      if (group.hasQuantifier || quant.repeats) parent.hasQuantifier = true;
      i = i + 1 + quant.length;
      continue;
    }
    const quant = quantifierAt(pattern, i);
    if (quant.length && quant.repeats) stack[stack.length - 1].hasQuantifier = true;
    i += quant.length || 1;
  }
  return null;
}

/**
 * True when every repetition of `body` must begin with a literal character that none of its
 * repeated parts can match (`(_[a-z]+)*`, `(,\d+)*`): repetitions then cannot be split two
 * ways, so the nested quantifier is linear.
 */
function startsWithDelimiter(body: string): boolean {
  const first = firstAtom(body);
  if (first === null || first === '.' || first.startsWith('[') || /^\\[dDwWsSbBpPu]/.test(first)) return false;
  if (quantifierAt(body, first.length).length) return false;
  for (const atom of repeatedAtoms(body.slice(first.length))) if (atomsOverlap(first, atom)) return false;
  return true;
}

/**
 * The mirror of startsWithDelimiter: every repetition ends with a literal character none of its
 * repeated parts can match (`(\d{1,3}\.){3}`, `([a-z]+,)*`), so repetitions cannot be split two
 * ways either.
 */
function endsWithDelimiter(body: string): boolean {
  const last = lastAtom(body);
  if (last === null || last === '.' || last.startsWith('[') || /^\\[dDwWsSbBpPu]/.test(last)) return false;
  for (const atom of repeatedAtoms(body.slice(0, body.length - last.length))) if (atomsOverlap(last, atom)) return false;
  return true;
}

/** Where the atom that starts at `i` ends: an escape, a class, a group or one character. */
function atomEnd(body: string, i: number): number {
  if (body[i] === '\\') return i + 2;
  if (body[i] === '[') return skipClass(body, i);
  if (body[i] === '(') return closingParen(body, i) + 1;
  return i + 1;
}

/** The last atom of `body` when it is a plain one with no quantifier of its own, else null. */
function lastAtom(body: string): string | null {
  let last: string | null = null;
  let i = 0;
  while (i < body.length) {
    const end = atomEnd(body, i);
    const quant = quantifierAt(body, end);
    const atom = body.slice(i, end);
    last = quant.length || atom.startsWith('(') || atom === '^' || atom === '$' ? null : atom.length === 1 && atom !== '.' ? escapeChar(atom) : atom;
    i = end + quant.length;
  }
  return last;
}

/** The atoms of `body` that carry a quantifier; a quantified group counts as matching anything. */
function repeatedAtoms(body: string): string[] {
  const atoms: string[] = [];
  let i = 0;
  while (i < body.length) {
    const end = atomEnd(body, i);
    const quant = quantifierAt(body, end);
    if (quant.length) atoms.push(body[i] === '(' ? '.' : body.slice(i, end));
    // Atoms inside groups count too: (x(y+))* repeats y.
    if (body[i] === '(') atoms.push(...repeatedAtoms(body.slice(i + 1, end - 1)));
    i = end + quant.length;
  }
  return atoms;
}

function closingParen(body: string, open: number): number {
  let depth = 0;
  for (let i = open; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '[') i = skipClass(body, i) - 1;
    else if (body[i] === '(') depth++;
    else if (body[i] === ')' && --depth === 0) return i;
  }
  return body.length - 1;
}

function groupBodyStart(pattern: string, open: number): number {
  // (?:  (?=  (?!  (?<=  (?<!  (?<name>
  const rest = pattern.slice(open + 2);
  if (rest.startsWith('<=') || rest.startsWith('<!')) return open + 4;
  if (rest.startsWith('<')) return pattern.indexOf('>', open) + 1;
  return open + 3;
}

function skipClass(pattern: string, open: number): number {
  let i = open + 1;
  while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The quantifier at `at` (if any): its length and whether it allows more than one repetition. */
function quantifierAt(pattern: string, at: number): { length: number; repeats: boolean } {
  const ch = pattern[at];
  let length = 0;
  let repeats = false;
  if (ch === '*' || ch === '+') {
    length = 1;
    repeats = true;
  } else if (ch === '?') {
    length = 1;
  } else if (ch === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (match) {
      length = match[0].length;
      const max = match[2] === undefined ? Number(match[1]) : match[3] === '' ? Infinity : Number(match[3]);
      repeats = max > 1;
    }
  }
  if (length && pattern[at + length] === '?') length++;
  return { length, repeats };
}

/** True when two branches could both start matching at the same character. */
function branchesOverlap(branches: string[]): boolean {
  if (branches.length < 2) return false;
  const firsts = branches.map(firstAtom);
  for (let a = 0; a < firsts.length; a++) {
    for (let b = a + 1; b < firsts.length; b++) {
      if (firsts[a] === null || firsts[b] === null) continue;
      if (atomsOverlap(firsts[a]!, firsts[b]!)) return true;
    }
  }
  return false;
}

/** The first atom of a branch as a regex source, '' for an empty branch (never overlaps), null when unknown. */
function firstAtom(branch: string): string | null {
  if (branch === '') return null;
  const ch = branch[0];
  if (ch === '\\') return branch.slice(0, 2);
  if (ch === '[') return branch.slice(0, skipClass(branch, 0));
  // A group, anchor or lookaround at the start: assume the worst.
  if (ch === '(' || ch === '^' || ch === '$') return '.';
  return ch === '.' ? '.' : escapeChar(ch);
}

const SAMPLE = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).concat(['é', 'ß', '中', '\u00a0']);

function atomsOverlap(a: string, b: string): boolean {
  if (a === b) return true;
  let left: RegExp;
  let right: RegExp;
  try {
    left = new RegExp(`^(?:${a})`, 's');
    right = new RegExp(`^(?:${b})`, 's');
  } catch {
    return true;
  }
  return SAMPLE.some((ch) => left.test(ch) && right.test(ch));
}

function escapeChar(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}
