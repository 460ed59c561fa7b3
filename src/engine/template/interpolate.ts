import { setOwn } from '../../config/own-key.js';
import { resolveTemplatePath, type TemplateLookup } from './template-path.js';

export { lookupIn, resolveTemplatePath, type LookupResult, type TemplateLookup } from './template-path.js';

// A template names a dotted path of identifier-like segments. Keeping the name this strict means
// text that merely contains braces (JSON, Go templates, `{{"a":1}}`) is left alone.
/** The pattern of a name a template binds and reads first (`args`, `item`): a plan's variables, a dataset's columns. */
export const TEMPLATE_HEAD_SOURCE = String.raw`[A-Za-z_$][\w$-]*`;
/** The pattern of a template's dotted name (`args.id`), shared with the URL templates and the load-time checks. */
export const TEMPLATE_NAME_SOURCE = String.raw`${TEMPLATE_HEAD_SOURCE}(?:\.[\w$-]+)*`;
const NAME = TEMPLATE_NAME_SOURCE;
const WHOLE = new RegExp(String.raw`^\{\{\s*(${NAME})\s*\}\}$`);
const EMBEDDED = new RegExp(String.raw`\{\{\s*(${NAME})\s*\}\}`, 'g');
const ANY = new RegExp(String.raw`\{\{\s*${NAME}\s*\}\}`);

/** Options for interpolate. */
export interface InterpolateOptions {
  /**
   * Applied to the text of each template embedded in a longer string (e.g. encodeURIComponent
   * for URLs). A whole-string template is never encoded: it is the entire value.
   */
  encode?: (text: string) => string;
}

/**
 * Replaces `{{ name }}` templates in every string inside `value` (objects and arrays deeply,
 * keys untouched; the input is not modified). docs/workflows.md, STEP plans: a string that is exactly one
 * template keeps the value's type; an embedded template is stringified (see stringifyValue).
 * An undefined variable throws RunError TEMPLATE_UNDEFINED naming the variable and `where`.
 */
export function interpolate(value: unknown, lookup: TemplateLookup, where?: string, options: InterpolateOptions = {}): unknown {
  if (typeof value === 'string') return interpolateString(value, lookup, where, options);
  if (Array.isArray(value)) return value.map((item) => interpolate(item, lookup, where, options));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, interpolate(item, lookup, where, options));
    return out;
  }
  return value;
}

/** Whether `value` (a string, or strings inside objects and arrays) holds any template. */
export function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return ANY.test(value);
  if (Array.isArray(value)) return value.some(hasTemplate);
  if (isPlainObject(value)) return Object.values(value).some(hasTemplate);
  return false;
}

/** Whether `text` is exactly one template (`{{ files }}`), which keeps its value's type (nothing around it, not even a space). */
export function isWholeTemplate(text: string): boolean {
  return WHOLE.test(text);
}

/** What is left of `text` once its templates are taken out: the text every value of it holds. */
export function textOutsideTemplates(text: string): string {
  return text.replace(EMBEDDED, '');
}

/**
 * How a value reads inside a longer string: strings as-is, numbers and booleans via String,
 * null as "null", undefined as "", arrays and objects as compact JSON.
 */
export function stringifyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  if (value === null || typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

function interpolateString(text: string, lookup: TemplateLookup, where: string | undefined, options: InterpolateOptions): unknown {
  const whole = WHOLE.exec(text);
  if (whole) return resolveTemplatePath(whole[1], lookup, where);
  if (!text.includes('{{')) return text;
  const encode = options.encode ?? ((s: string) => s);
  return text.replace(EMBEDDED, (_match, path: string) => encode(stringifyValue(resolveTemplatePath(path, lookup, where))));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
