import { quoteText } from './quote-text.js';

/** How much of a value an error message quotes (docs/security.md "Hostile files"). */
export const MAX_ECHOED_CHARS = 200;

/** `text` cut at `max` characters with `... (N more characters)`, so an error never echoes megabytes. */
export function capEchoed(text: string, max = MAX_ECHOED_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length - max} more characters)`;
}

/** `text` as a JSON string (unprintable characters escaped, quoteText), cut like capEchoed. */
export function quoteCapped(text: string, max = MAX_ECHOED_CHARS): string {
  return text.length <= max ? quoteText(text) : `${quoteText(text.slice(0, max))}... (${text.length - max} more characters)`;
}
