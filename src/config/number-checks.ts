import { walkJsonText } from './json-text-walk.js';
import { isSecretPath } from './redact.js';
import type { PathSegments } from './source.js';

/**
 * Numbers a config file may not hold because they cannot be read as written: an integer beyond
 * 2^53 (it would be rounded), a number too large for a double (read as Infinity) or a non-zero
 * number too small for one (read as 0). Refused, never rounded (docs/formats.md).
 */

/** How the message of an integer beyond 2^53 ends: only such a number may be meant as a string. */
const ROUNDED = 'and would be rounded';

/**
 * Said after a number beyond 2^53 where a string is accepted in its place (an id, a value in
 * free-form data); elsewhere (a count, a limit) the number is simply out of range.
 */
export const LARGE_ID_ADVICE = 'write a large id as a string';

/** What is wrong with a number literal read as `value`, or undefined when it is exact enough. */
export function numberProblem(literal: string, value: number): string | undefined {
  if (!Number.isFinite(value))
    return `number ${literal} is not finite (a number too large for a double, .inf and .nan are refused: agentcheck files and reports hold finite numbers only)`;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return `number ${literal} is beyond 2^53 (${Number.MAX_SAFE_INTEGER}) ${ROUNDED}`;
  if (value === 0 && /[1-9]/.test(literal.split(/[eE]/)[0])) return `number ${literal} is too small to be represented (it would be read as 0)`;
  return undefined;
}

/**
 * The first number in a parsed value that cannot be exact (non-finite or an unsafe integer), with
 * its path. Recursive: callers check the nesting first (deepestPath, MAX_DEPTH). No path is built
 * unless one is returned.
 */
export function valueNumberProblem(root: unknown): { path: PathSegments; message: string } | undefined {
  const path: Array<string | number> = [];
  const problemIn = (value: unknown): string | undefined => {
    if (typeof value === 'number') return numberProblem(String(value), value);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        path.push(index);
        const message = problemIn(value[index]);
        if (message) return message;
        path.pop();
      }
    } else if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        path.push(key);
        const message = problemIn((value as Record<string, unknown>)[key]);
        if (message) return message;
        path.pop();
      }
    }
    return undefined;
  };
  const message = problemIn(root);
  return message ? { path, message } : undefined;
}

/** Whether a number problem's message is about an integer beyond 2^53, which a string could hold exactly. */
export function isRoundedNumber(message: string): boolean {
  return message.endsWith(ROUNDED);
}

/** A copy of a parsed value with every integer beyond 2^53 written as a string. Recursive: the nesting is checked first. */
export function largeIntegersAsStrings(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value) ? String(value) : value;
  if (Array.isArray(value)) return value.map(largeIntegersAsStrings);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, largeIntegersAsStrings(item)]));
  return value;
}

/**
 * Every number in a parsed value that cannot be read as written, with its path: the slow
 * companion of valueNumberProblem, run only once that found one, so all of them are listed.
 */
export function valueNumberProblems(root: unknown): Array<{ path: PathSegments; message: string }> {
  const found: Array<{ path: PathSegments; message: string }> = [];
  const visit = (value: unknown, path: PathSegments): void => {
    if (typeof value === 'number') {
      const message = numberProblem(String(value), value);
      if (message) found.push({ path, message });
    } else if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
  };
  visit(root, []);
  return found;
}

/**
 * Every number literal of a (valid) JSON text that cannot be read exactly, with its offset and
 * path: JSON.parse has already rounded them, so the text is scanned.
 */
export function jsonNumberProblems(text: string): Array<{ offset: number; path: PathSegments; message: string }> {
  const found: Array<{ offset: number; path: PathSegments; message: string }> = [];
  walkJsonText(text, {
    number(literal, offset, path) {
      const message = numberProblem(literal, Number(literal));
      if (message) found.push({ offset, path: [...path], message });
    },
  });
  return found;
}

/**
 * Whether a YAML text may hold a number that underflows to 0 or overflows (a three-digit exponent,
 * a long run of zeros after the point): only such texts need their scalars read one by one.
 */
export function mayUnderflow(text: string): boolean {
  // Also an exponent of three digits up: the fast YAML path reads `1e400` as a string, not a number.
  return /\d[eE][-+]?0*\d{3}|\.0{16,}/.test(text);
}

/** Line and column (1-based) of an offset in a text. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** A number problem's message for `path`, its literal left out where the key's name says it may be a credential. */
export function numberMessageAt(message: string, path: PathSegments | undefined): string {
  return path && isSecretPath(path) ? message.replace(/^number \S+/, "the number (not shown: its key's name says it may be a credential)") : message;
}
