import { setOwn } from '../../config/own-key.js';
import { secretForms, uriSpellings } from '../../config/redactor.js';
import { isKnownSecretHeader, isSecretName, isSecretHeaderName, isSecretQueryName, isSecretVariable, MIN_SCRUBBED_LENGTH } from '../../config/redact.js';
import { compareCodeUnits } from '../../config/code-unit-order.js';

/** What stands in for a secret value in a URL or a body. */
export const REDACTED = '[redacted]';

/** Shorter values are not scrubbed from text: replacing "abc" everywhere would mangle bodies. */
const MIN_SECRET_LENGTH = MIN_SCRUBBED_LENGTH;
/**
 * For headers dropped only for their name's words (`x-session-token`, not a fixed credential
 * header), the value is scrubbed elsewhere only when it is long enough to be a credential.
 */
const MIN_GUESSED_SECRET_LENGTH = 16;

/**
 * Strips credentials from what a cassette stores, before anything is written: secret headers
 * are dropped, secret query values replaced, and every secret value seen (in those headers, in
 * those query parameters, or in a secret-named environment variable) is scrubbed from the text
 * of URLs and bodies, so a key echoed in a body cannot leak either.
 */
export class SecretStripper {
  private readonly values = new Set<string>();

  /** Starts from the values of secret variables in `env` (OPENAI_API_KEY, GITHUB_TOKEN, ...) and the `known` secrets. */
  constructor(env: Readonly<Record<string, string | undefined>> = {}, known: readonly string[] = []) {
    for (const [name, value] of Object.entries(env)) if (value && isSecretVariable(name)) this.learn(value, MIN_SECRET_LENGTH);
    for (const value of known) this.learn(value, MIN_SECRET_LENGTH);
  }

  /** True when `name` is a header a cassette never stores. */
  static isSecretHeader(name: string): boolean {
    return isSecretHeaderName(name);
  }

  /** The headers without credentials (names lower-cased); the dropped values are remembered. */
  headers(headers: Headers, drop: ReadonlySet<string> = new Set()): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of headers) {
      if (SecretStripper.isSecretHeader(name)) {
        const min = isKnownSecretHeader(name) ? MIN_SECRET_LENGTH : MIN_GUESSED_SECRET_LENGTH;
        this.learn(value, min);
        // `Bearer sk-...`: the token alone may turn up elsewhere, without its scheme.
        const token = /^\S+\s+(\S+)$/.exec(value)?.[1];
        if (token) this.learn(token, min);
        continue;
      }
      if (!drop.has(name)) setOwn(out, name, this.text(value));
    }
    return out;
  }

  /** The URL with credentials removed (user info, secret query values) and its query sorted. */
  url(raw: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return this.text(raw);
    }
    if (url.username || url.password) {
      this.learn(decodeURIComponent(url.password), MIN_SECRET_LENGTH);
      url.username = '';
      url.password = '';
    }
    for (const [name, value] of url.searchParams) {
      if (isSecretQueryName(name)) this.learn(value, MIN_SECRET_LENGTH);
    }
    const params = [...url.searchParams].map(([name, value]): [string, string] => (isSecretQueryName(name) ? [name, REDACTED] : [name, value]));
    // Sorted, so the same parameters in another order still match on replay.
    params.sort(([a], [b]) => compareCodeUnits(a, b));
    url.search = new URLSearchParams(params).toString();
    return this.text(url.toString());
  }

  /** Learns the string values under secret-named keys of a JSON body (deeply). */
  learnJson(value: unknown, secret = false): void {
    if (typeof value === 'string' && secret) this.learn(value, MIN_SECRET_LENGTH);
    else if (Array.isArray(value)) for (const item of value) this.learnJson(item, secret);
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) this.learnJson(item, secret || isSecretName(key));
    }
  }

  /** `text` with every known secret value (raw, URL-encoded and JSON-escaped) replaced. */
  text(text: string): string {
    let out = text;
    // Longest first, so `Bearer sk-x` goes whole before `sk-x` is looked for.
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) {
      for (const form of forms(value)) if (out.includes(form)) out = out.split(form).join(REDACTED);
    }
    return out;
  }

  private learn(value: string, min: number): void {
    if (value.length >= min && value !== REDACTED) this.values.add(value);
  }
}

/** The spellings of a value the Redactor scrubs (URL spellings included): one list for every output. */
function forms(value: string): Set<string> {
  return new Set([...secretForms(value), ...uriSpellings(value).map(([spelling]) => spelling)]);
}
