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

/**
 * What is wrong with a number literal read as `value`, or undefined when it is exact enough.
 * Beyond 2^53 only an integer the double does not hold is refused (`12345678901234567890`):
 * `1e16` or `9007199254740992.0` is read exactly as written.
 */
export function numberProblem(literal: string, value: number): string | undefined {
  if (!Number.isFinite(value))
    return `number ${literal} is not finite (a number too large for a double, .inf and .nan are refused: agentcheck files and reports hold finite numbers only)`;
  if (Number.isInteger(value) && !Number.isSafeInteger(value) && integerOf(literal) !== BigInt(value))
    return `number ${literal} is beyond 2^53 (${Number.MAX_SAFE_INTEGER}) ${ROUNDED}`;
  if (value === 0 && /[1-9]/.test(literal.split(/[eE]/)[0])) return `number ${literal} is too small to be represented (it would be read as 0)`;
  return undefined;
}

/**
 * The mathematical value of a number literal when it is an integer (`1e16`, `2.0`, `0x1F`), else
 * undefined (`0.5`, a literal not read here): a double that differs from it was rounded.
 */
function integerOf(literal: string): bigint | undefined {
  const radix = /^([-+]?)(0x[0-9a-f]+|0o[0-7]+)$/i.exec(literal);
  if (radix) return (radix[1] === '-' ? -1n : 1n) * BigInt(radix[2].toLowerCase());
  const decimal = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(literal);
  if (!decimal || (decimal[2] === '' && !decimal[3])) return undefined;
  const fraction = decimal[3] ?? '';
  const digits = `${decimal[2]}${fraction}`.replace(/0+$/, '');
  if (!/[1-9]/.test(digits)) return 0n;
  // The place of the last non-zero digit: below the units, the value is no integer.
  const exponent = Number(decimal[4] ?? 0) - fraction.length + (`${decimal[2]}${fraction}`.length - digits.length);
  if (exponent < 0 || exponent > 400) return undefined;
  return (decimal[1] === '-' ? -1n : 1n) * BigInt(digits) * 10n ** BigInt(exponent);
}

/**
 * Whether a parsed value may hold a number that cannot be read as written (a non-finite number,
 * an integer beyond 2^53): only then are its literals read one by one. Recursive: callers check
 * the nesting first (deepestPath, MAX_DEPTH).
 */
export function mayHoldInexactNumber(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value));
  if (Array.isArray(value)) return value.some(mayHoldInexactNumber);
  if (value && typeof value === 'object') return Object.values(value).some(mayHoldInexactNumber);
  return false;
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
 * companion of mayHoldInexactNumber, for what only the value holds (a number reached through an
 * alias). The value no longer shows its literal, so an integer beyond 2^53 counts only when it is
 * one of `rounded`, the values whose literals were found rounded.
 */
export function valueNumberProblems(root: unknown, rounded: ReadonlySet<number>): Array<{ path: PathSegments; message: string }> {
  const found: Array<{ path: PathSegments; message: string }> = [];
  const visit = (value: unknown, path: PathSegments): void => {
    if (typeof value === 'number') {
      const exact = Number.isInteger(value) && !rounded.has(value);
      const message = numberProblem(exact ? BigInt(value).toString() : String(value), value);
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
