import { printable } from '../format/printable.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Lone surrogates cannot be encoded as UTF-8; a browser would show U+FFFD, a test would not match.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escapes text for element content and quoted attribute values alike. Quotes are escaped too,
 * so one function is safe everywhere; control characters go (as in the other reports) because
 * they are invisible in a page and may confuse a copy-paste into a terminal.
 */
export function esc(text: string): string {
  return printable(text)
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

/** A value for a `data-` attribute: numbers as JSON writes them (so they compare exactly), null as "". */
export type DataValue = string | number | boolean | null | undefined;

/**
 * ` data-a="1" data-b="x"` from a record; keys are written as given (kebab-case). Numbers use
 * String(), which round-trips a double exactly, so a test can compare with report.json.
 */
export function dataAttrs(values: Record<string, DataValue>): string {
  let out = '';
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out += ` data-${key}="${value === null ? '' : esc(String(value))}"`;
  }
  return out;
}
