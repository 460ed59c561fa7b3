import { duplicateJsonKey } from './json-duplicate-keys.js';
import { jsonSyntaxProblem } from './json-syntax-error.js';
import { jsonNumberProblem, lineColumnAt } from './number-checks.js';

/** Why a JSON text is not strict JSON, where (1-based, when known) and its error code. */
export interface StrictJsonProblem {
  line?: number;
  column?: number;
  message: string;
  code: 'CONFIG_SYNTAX' | 'CONFIG_INVALID';
}

/**
 * Reads a JSON text strictly (docs/formats.md): a syntax error, a number that cannot be read as
 * written (beyond 2^53, too large or too small for a double) and a key given twice in one object
 * (JSON.parse would keep the last silently) are each a problem, the first one found, located.
 * Shared by `.json` files and each line of a `.jsonl` dataset.
 */
export function readStrictJson(text: string): { value: unknown } | { problem: StrictJsonProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { reason, ...at } = jsonSyntaxProblem(text, error);
    return { problem: { ...at, message: `is not valid JSON: ${reason}`, code: 'CONFIG_SYNTAX' } };
  }
  const number = jsonNumberProblem(text);
  if (number) return { problem: { ...lineColumnAt(text, number.offset), message: number.message, code: 'CONFIG_INVALID' } };
  const duplicate = duplicateJsonKey(text);
  if (duplicate) {
    const message = `is not valid strict JSON: the key "${duplicate.key}" appears twice in one object (JSON.parse would keep the last silently); remove one`;
    return { problem: { ...lineColumnAt(text, duplicate.offset), message, code: 'CONFIG_SYNTAX' } };
  }
  return { value };
}
