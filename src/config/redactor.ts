import { isSecretQueryName, MIN_SCRUBBED_LENGTH } from './redact.js';
import { compileHarnessRegex } from './safe-regex.js';
import { setOwn } from './own-key.js';

/** What stands in for a secret in every output. */
export const REDACTED = '[redacted]';

// Both run on the linear-time path: they scan model replies and tool results of any length.
/** `?name=value` / `&name=value` in text; the name decides (isSecretQueryName). */
const QUERY_PARAM = compileHarnessRegex(String.raw`([?&;])([A-Za-z0-9_.\-]+)=([^&#\s"'<>\\]+)`, 'g');
/** The password of `scheme://user:password@host`. */
const USERINFO = compileHarnessRegex(String.raw`(://[^\s/?#@:"'<>]*:)([^\s/?#@"'<>]+)@`, 'g');

/**
 * Scrubs secrets from everything a run writes (reports, spans, OTLP, progress lines): the
 * values it was told about (every key the run was given, from the environment and from agent
 * builds) wherever they appear, plus credentials recognised by shape: the values of
 * credential-like URL query parameters and URL passwords (docs/security.md "Secrets").
 */
/**
 * The forms a secret value takes in text: as it is, in a URL (percent-encoded), in JSON text
 * (escaped), and escaped again at each level of JSON inside JSON, up to JSON_LEVELS: a command
 * tool that prints JSON holding the key, inside the tool result's JSON, inside a span's messages
 * JSON is three. A key with no character JSON escapes has one JSON form, the raw one.
 */
export function secretForms(value: string): [raw: string, uri: string, json: string, ...deeper: string[]] {
  const levels: string[] = [];
  for (let level = 0, text = value; level < JSON_LEVELS; level++) levels.push((text = JSON.stringify(text).slice(1, -1)));
  return [value, encodeURIComponent(value), ...(levels as [string, ...string[]])];
}

/** How many times over a secret's JSON escaping is looked for (see secretForms). */
const JSON_LEVELS = 4;

/**
 * Other spellings of a secret in a URL that decode to it, each with the name a checkpoint marker
 * gives it: lower-case percent escapes (`%2f`) and form encoding (`+` for a space, as
 * `URLSearchParams` and Python's `urlencode` write it). Some may equal the plain forms.
 */
export function uriSpellings(value: string): Array<[form: string, name: string]> {
  const uri = encodeURIComponent(value);
  const lower = uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  return [
    [lower, 'uri-lower'],
    [uri.replace(/%20/g, '+'), 'uri-plus'],
    [lower.replace(/%20/g, '+'), 'uri-plus-lower'],
    [new URLSearchParams({ v: value }).toString().slice(2), 'form'],
  ];
}

/**
 * Where a text was cut: a quote's "..." or "\u2026" (after a closing quote if the quote was JSON),
 * or a span value's `[truncated N characters]`, or a command output's `\n[truncated N bytes]` (its
 * line break as it is, or escaped in JSON once or more).
 */
const CUT_MARK = compileHarnessRegex(String.raw`"?(?:\.\.\.|\u2026)|\[truncated \d+ characters\]|(?:\n|\\+n)?\[truncated \d+ bytes\]`, 'g');
/**
 * The shortest start of a secret taken for one at a cut, as long as the shortest secret: shorter
 * ones are ordinary text too often ("pass..." of a password), and scrubbing them changes what
 * checks read from spans.
 */
const MIN_CUT_PREFIX = MIN_SCRUBBED_LENGTH;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

export class Redactor {
  private ordered: string[] = [];
  private readonly known = new Set<string>();

  /** Adds secret values; those shorter than 8 characters are ignored (too likely ordinary text). */
  add(values: Iterable<string>): this {
    for (const value of values) {
      if (value.length < MIN_SCRUBBED_LENGTH || value === REDACTED) continue;
      for (const form of [...secretForms(value), ...uriSpellings(value).map(([spelling]) => spelling)]) this.known.add(form);
    }
    // Longest first, so `Bearer sk-x` goes whole before `sk-x` is looked for.
    this.ordered = [...this.known].sort((a, b) => b.length - a.length);
    return this;
  }

  /** `text` without known secrets and credential-shaped values. */
  text(text: string): string {
    // Every string of every span and row passes here: an index loop, and nothing for no secrets.
    const ordered = this.ordered;
    if (ordered.length === 0) return scrubCredentialShapes(text);
    let out = text;
    for (let i = 0; i < ordered.length; i++) if (out.includes(ordered[i])) out = out.split(ordered[i]).join(REDACTED);
    if (out.includes('...') || out.includes('\u2026') || out.includes('[truncated ')) out = this.cutSecrets(out);
    return scrubCredentialShapes(out);
  }

  /**
   * `text` with the start of a secret that a quote cut short replaced: a check's reason shows
   * the first 80 characters of an output and an error the first 200 of a value, ending in "..."
   * (or "\u2026"), so the secret in it is whole no more and the replacement above misses it.
   */
  private cutSecrets(text: string): string {
    let out = '';
    let from = 0;
    for (const match of text.matchAll(CUT_MARK)) {
      const end = match.index;
      const length = this.cutSecretLength(text, end);
      if (length === 0 || end - length < from) continue;
      out += `${text.slice(from, end - length)}${REDACTED}`;
      from = end;
    }
    return from === 0 ? text : out + text.slice(from);
  }

  /** The length of the longest start of a secret (MIN_CUT_PREFIX or more) that `text` has just before `end`. */
  private cutSecretLength(text: string, end: number): number {
    let longest = 0;
    for (const secret of this.ordered) {
      for (let length = Math.min(secret.length - 1, end); length > longest && length >= MIN_CUT_PREFIX; length--) {
        // The start of a word only: "com|pass..." is a word, not a cut secret.
        if (text.startsWith(secret.slice(0, length), end - length) && startsWord(text, end - length)) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }

  /**
   * `value` with every string (and object key) scrubbed: a copy of each array and object that
   * holds something to scrub, the same object where nothing needed scrubbing (most spans and
   * rows: copying them all was a large share of a suite's garbage).
   */
  value<T>(value: T): T {
    const scrub = (item: unknown): unknown => {
      if (typeof item === 'string') return this.text(item);
      if (Array.isArray(item)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < item.length; i++) {
          const next = scrub(item[i]);
          if (!out && next !== item[i]) out = item.slice(0, i);
          out?.push(next);
        }
        return out ?? item;
      }
      if (item && typeof item === 'object') {
        const record = item as Record<string, unknown>;
        const keys = Object.keys(record);
        let out: Record<string, unknown> | undefined;
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i];
          const inner = record[key];
          const scrubbedKey = this.text(key);
          const next = scrub(inner);
          if (!out && (scrubbedKey !== key || next !== inner)) {
            out = {};
            // setOwn: a `__proto__` key (a model's argument, an API's answer) is copied as a key.
            for (let j = 0; j < i; j++) setOwn(out, keys[j], record[keys[j]]);
          }
          if (out) setOwn(out, scrubbedKey, next);
        }
        return out ?? item;
      }
      return item;
    };
    return scrub(value) as T;
  }
}

/**
 * Whether `text` has a word start at `at`: no letter, digit or `_` before it, or one that ends a
 * JSON escape (`\n`, `\t`, `\r` written out, as a line break is inside a JSON string).
 */
function startsWord(text: string, at: number): boolean {
  const before = text[at - 1] ?? '';
  if (!WORD_CHAR.test(before)) return true;
  return 'nrtbf'.includes(before) && text[at - 2] === '\\';
}

/**
 * `text` with the values of credential query parameters and URL passwords replaced. Punctuation
 * that ends a query value (`)`, `.`, `,` ...) is kept after "[redacted]": in prose a URL is
 * followed by it (`(see https://x/y?token=...)`), and tokens do not end with it.
 */
export function scrubCredentialShapes(text: string): string {
  let out = text;
  // Each pattern runs only on text that has its mark: most strings have neither.
  if (out.includes('=')) {
    out = out.replace(QUERY_PARAM, (whole, sep: string, name: string, value: string) => {
      if (!isSecretQueryName(name)) return whole;
      // A known value already replaced (`token=[redacted])`) is left as it is, punctuation included.
      const start = value.startsWith(REDACTED) ? REDACTED.length : 0;
      const end = valueEnd(value, start);
      return end === start ? whole : `${sep}${name}=${REDACTED}${value.slice(end)}`;
    });
  }
  if (out.includes('@') && out.includes('://')) out = out.replace(USERINFO, (_whole, before: string) => `${before}${REDACTED}@`);
  return out;
}

/** Characters that end a sentence or close a bracket around a URL, rather than belong to a query value. */
const TRAILING_PUNCTUATION = new Set([')', ']', '}', '.', ',', ';', ':', '!', '?', '*']);

/** Where `value` ends once trailing punctuation is cut off (not before `start`); a loop, as a `+$` regex backtracks quadratically. */
function valueEnd(value: string, start: number): number {
  let end = value.length;
  while (end > start && TRAILING_PUNCTUATION.has(value[end - 1])) end--;
  return end;
}
