import { quoteCapped } from './cap-text.js';

/** Short description of a value for "got ..." clauses; a string quoted as every echoed value is (quoteCapped). */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `string ${quoteCapped(value)}`;
  // JSON has no text for these (it writes null); a request from code or `1e400` may hold one.
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${String(value)}`;
  // Nor for these, which a library caller's value may hold (JSON.stringify throws or gives nothing).
  if (typeof value === 'bigint') return `bigint ${String(value)}n`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  const text = JSON.stringify(value);
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `${typeof value} ${shown}`;
}

/** A value's kind alone, for a value that may be a credential: "a number (not shown: ...)". */
export function describeHiddenValue(value: unknown): string {
  if (value === undefined || value === null || typeof value === 'object') return describeValue(value);
  return `${typeof value} (not shown: its key's name says it may be a credential)`;
}
