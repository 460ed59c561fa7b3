import { duplicateJsonKeys } from './json-duplicate-keys.js';
import { jsonSyntaxProblem } from './json-syntax-error.js';
import { jsonNumberProblems, lineColumnAt } from './number-checks.js';
import type { PathSegments } from './source.js';

/** Why a JSON text is not strict JSON, where (1-based, when known; the value's or the key's path when it has one) and its error code. */
export interface StrictJsonProblem {
  line?: number;
  column?: number;
  path?: PathSegments;
  message: string;
  code: 'CONFIG_SYNTAX' | 'CONFIG_INVALID';
}

/**
 * Reads a JSON text strictly (docs/formats.md): a syntax error is the one problem; otherwise every
 * number that cannot be read as written (beyond 2^53, too large or too small for a double), with
 * its path, and a key given twice in one object (JSON.parse would keep the last silently), at its path.
 * Shared by `.json` files and each line of a `.jsonl` dataset. With problems, `value` is still the
 * parsed text (JSON.parse's reading: the last of two equal keys) unless it is not JSON at all, for a
 * reader that reports them beside the format's own problems.
 */
export function readStrictJson(text: string): { value: unknown } | { problems: StrictJsonProblem[]; value?: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { reason, ...at } = jsonSyntaxProblem(text, error);
    return { problems: [{ ...at, message: `is not valid JSON: ${reason}`, code: 'CONFIG_SYNTAX' }] };
  }
  const problems: StrictJsonProblem[] = jsonNumberProblems(text).map((number) => ({
    ...lineColumnAt(text, number.offset),
    path: number.path,
    message: number.message,
    code: 'CONFIG_INVALID',
  }));
  for (const duplicate of duplicateJsonKeys(text)) {
    const message = `is not valid strict JSON: the key "${duplicate.key}" appears twice in one object (JSON.parse would keep the last silently); remove one`;
    problems.push({ ...lineColumnAt(text, duplicate.offset), path: duplicate.path, message, code: 'CONFIG_SYNTAX' });
  }
  return problems.length ? { problems, value } : { value };
}
