import { capEchoed } from './cap-text.js';
import { backtrackingRisk } from './backtracking-risk.js';
import { foldCase } from './fold-case.js';
import { skipClass } from './regex-syntax.js';
import { enableRegexpLinearFallback } from './v8-flags.js';

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

/**
 * Flags a pattern may carry without effect: a match is tested whole (a `/tool/g` name), never
 * searched for again from where the last one ended (docs/verdicts.md). Dropped when compiled.
 */
const IGNORED_FLAGS = /[gy]/g;

/** Why `pattern` is unsafe or invalid, or null when it may be used. */
export function regexProblem(pattern: string, flags = ''): string | null {
  // Flags first: a flag JavaScript does not know would otherwise be reported by V8 as a broken pattern.
  const badFlags = [...new Set(flags.replace(/[ims]/g, '').replace(IGNORED_FLAGS, ''))].join('');
  if (badFlags)
    return `regular expression /${capEchoed(pattern)}/${capEchoed(flags)}: flag${badFlags.length > 1 ? 's' : ''} "${badFlags}" not supported; use i, m and s (g and y are accepted and ignored; the others turn off linear-time matching)`;
  // JavaScript refuses a flag given twice, also an ignored one: said here with the flags as written, not in V8's words.
  const twice = [...flags].find((flag, index) => flags.indexOf(flag) !== index);
  if (twice) return `regular expression /${capEchoed(pattern)}/${capEchoed(flags)}: flag "${twice}" given twice; give each flag once`;
  try {
    new RegExp(pattern, flags.replace(IGNORED_FLAGS, ''));
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
 * `i` flag, which that engine does not take, is compiled as a case-folded pattern instead; `g`
 * and `y` are dropped (IGNORED_FLAGS).
 */
export function compileSafeRegex(pattern: string, flags = ''): RegExp {
  const problem = regexProblem(pattern, flags);
  if (problem) throw new Error(problem);
  return compileHarnessRegex(flags.includes('i') ? foldCase(pattern) : pattern, flags.replace(IGNORED_FLAGS, '').replace('i', ''));
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
  enableRegexpLinearFallback();
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

/**
 * `/body/flags` written as a string (tool names, tokens): the pattern and flags, else null. Every
 * letter after the closing slash is a flag, any case or alphabet (`/lookup/I`), so one
 * regexProblem does not support is refused as a flag rather than read as a name.
 */
export function parseSlashRegex(text: string): { pattern: string; flags: string } | null {
  const match = /^\/(.+)\/(\p{L}*)$/su.exec(text);
  return match ? { pattern: match[1], flags: match[2] } : null;
}
