import { ConfigError } from '../../config/errors.js';
import { formatPath } from '../../config/format-path.js';
import type { PathSegments } from '../../config/source.js';
import { WHOLE_TEMPLATE, type DatasetRow } from './dataset.js';

/** The paths (as a ConfigError names them) of the strings in `value` that are exactly one `{{ vars.* }}`. */
export function wholeTemplatePaths(value: unknown, at: PathSegments, into = new Set<string>()): Set<string> {
  return stringPaths(value, at, WHOLE_TEMPLATE, into);
}

/** The paths (as a ConfigError names them) of the strings in `value` that `pattern` matches. */
export function stringPaths(value: unknown, at: PathSegments, pattern: RegExp, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (pattern.test(value)) into.add(formatPath(at));
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => stringPaths(item, [...at, index], pattern, into));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) stringPaths(item, [...at, key], pattern, into);
  }
  return into;
}

/** A type error's parts: what was expected and the kind it got (`expected number, got string "0.5"`). */
const TYPE_ERROR = /^expected (.+?), got (string|number|boolean|null|an array|an object)\b/;
/** Expected words that take no text: a CSV value cannot be one. */
const NOT_TEXT = /\b(number|integer|boolean|true|false|null|array|object|list|mapping)\b/;

/**
 * `error` with the dataset rule behind it, when it is a type error at a string that is exactly one
 * template (docs/formats.md, "Datasets"): the user wrote a string and is told the value has the
 * wrong type. CSV values are always text; a whole-string template keeps a JSONL or inline value's type.
 */
export function withTemplateTypeHint(error: ConfigError, wholes: ReadonlySet<string>, row: DatasetRow): ConfigError {
  if (error.path === undefined || !wholes.has(error.path)) return error;
  return withHint(error, templateTypeHint(error.expected, row.fromCsv === true));
}

/** `error` with `hint` after what it says (and the dataset row it names); `error` itself without one. */
export function withHint(error: ConfigError, hint: string | undefined): ConfigError {
  if (hint === undefined) return error;
  const { file, line, column, path } = error;
  return new ConfigError({ file, line, column, path }, `${error.expected}; ${hint}`, error.code);
}

/**
 * Why a value rendered from a whole-string template has the wrong type, for a type error
 * (`expected number, got string "0.5"`) at it; undefined for any other problem.
 */
export function templateTypeHint(expected: string, fromCsv: boolean): string | undefined {
  const [, wanted, got] = TYPE_ERROR.exec(expected) ?? [];
  if (wanted === undefined || got === undefined) return undefined;
  const wantsText = /\bstring\b/.test(wanted);
  if (got === 'string' && fromCsv && !wantsText && NOT_TEXT.test(wanted)) {
    return 'CSV values are text: a number or true/false cannot come from a CSV column; use a .jsonl or inline dataset';
  }
  if (got !== 'string' && wantsText && !wanted.includes(got.replace(/^an /, ''))) {
    return 'a string that is exactly one {{ vars.NAME }} takes the value with its type; for text, write text around it ("order {{ vars.id }}")';
  }
  return undefined;
}
