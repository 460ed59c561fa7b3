import { escapeUnprintable, hasUnprintable, quoteText } from './quote-text.js';

/** How much of a value an error message quotes (docs/security.md "Hostile files"). */
export const MAX_ECHOED_CHARS = 200;

/** `text` cut at `max` characters with `... (N more characters)`, so an error never echoes megabytes. */
export function capEchoed(text: string, max = MAX_ECHOED_CHARS): string {
  if (text.length <= max) return text;
  const kept = cutLength(text, max);
  return `${text.slice(0, kept)}... (${text.length - kept} more characters)`;
}

/** `text` as a JSON string (unprintable characters escaped, quoteText), cut like capEchoed. */
export function quoteCapped(text: string, max = MAX_ECHOED_CHARS): string {
  if (text.length <= max) return quoteText(text);
  const kept = cutLength(text, max);
  return `${quoteText(text.slice(0, kept))}... (${text.length - kept} more characters)`;
}

/**
 * A JSON value as a message quotes it: a string as quoteCapped, any other value as its JSON text,
 * escaped and cut alike; a value that is not there is `nothing`, as describeValue says it.
 */
export function quoteJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return quoteCapped(value);
  return capEchoed(escapeUnprintable(JSON.stringify(value) ?? String(value)));
}

/**
 * A name a message shows without quotes (a tool or parameter in an `expected one of` list, a
 * file path): as written when it is printable and at most 200 characters, else as quoteCapped
 * quotes it, so a name from a hostile file can neither reach the terminal raw nor run on for pages.
 */
export function shownName(name: string): string {
  return name.length <= MAX_ECHOED_CHARS && !hasUnprintable(name) ? name : quoteCapped(name);
}

/** `names` as a message lists them, each shownName, joined with `, `. */
export function shownNames(names: Iterable<string>): string {
  return [...names].map(shownName).join(', ');
}

/** How many characters of `text` a cut at `max` keeps: one less when `max` would split a surrogate pair (an emoji). */
export function cutLength(text: string, max: number): number {
  const last = text.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
}
