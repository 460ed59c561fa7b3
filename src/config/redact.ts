import { ownValue, setOwn } from './own-key.js';

/** Words that make a name a secret's name: its value never reaches a span, a report or a log. */
const SECRET_WORDS = new Set(['token', 'secret', 'password', 'passwd', 'authorization', 'cookie', 'credential', 'credentials', 'apikey', 'bearer']);
/** Word pairs that do the same (`OPENAI_API_KEY`, `private-key`, `X-Auth-Key`, `Ocp-Apim-Subscription-Key`). */
const SECRET_PAIRS = new Set([
  'api key',
  'private key',
  'access key',
  'secret key',
  'auth key',
  'subscription key',
  'functions key',
  'function key',
  'master key',
  'account key',
  'session key',
]);

/**
 * True when a key name looks like it holds a secret. Names are compared word by word (split at
 * `-`, `_`, `.`, spaces and camelCase), so `GITHUB_TOKEN`, `x-api-key` and `accessToken` are
 * secrets while `max_tokens`, a model parameter, is not.
 */
export function isSecretName(name: string): boolean {
  // Long keys (data used as keys) are worked out each time rather than remembered.
  if (name.length > MAX_REMEMBERED_NAME_LENGTH) return hasSecretWords(name);
  let secret = secretNames.get(name);
  if (secret === undefined) {
    if (secretNames.size >= MAX_REMEMBERED_NAMES) secretNames.clear();
    secretNames.set(name, (secret = hasSecretWords(name)));
  }
  return secret;
}

/** isSecretName by name: a suite asks about the same keys (attributes, arguments, headers) in every run. */
const secretNames = new Map<string, boolean>();
/** More names than a suite uses; past it the memo starts over rather than grow. */
const MAX_REMEMBERED_NAMES = 10_000;
const MAX_REMEMBERED_NAME_LENGTH = 200;

function hasSecretWords(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[-_.\s]+/)
    .filter(Boolean);
  return words.some((word, i) => SECRET_WORDS.has(word) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${word}`)));
}

/**
 * Environment variables whose values are secrets: secret names (above) plus any `*_KEY`
 * (`AZURE_OPENAI_KEY`). Their values are hidden from /proc and scrubbed from every output.
 */
export function isSecretVariable(name: string): boolean {
  return isSecretName(name) || /(^|_)KEY$/i.test(name);
}

/** Headers that carry credentials whatever their name's words say. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'cookie', 'set-cookie']);

/** True when a header carries a credential (`Authorization`, `X-Auth-Key`, any secret name). */
export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase()) || isSecretName(name);
}

/**
 * True when a value at `path` may be a credential by the name of its key (`external.env.SERVICE_TOKEN`,
 * `headers.Authorization`, `llm.parameters.api_key`): an error about it says its type, not its value.
 */
export function isSecretPath(path: ReadonlyArray<string | number>): boolean {
  return path.some((segment) => typeof segment === 'string' && (isSecretVariable(segment) || isSecretHeaderName(segment)));
}

/** True when `name` is one of the fixed credential headers (always scrubbed, whatever the value's length). */
export function isKnownSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** Query parameters that carry credentials besides secret-named ones (`?key=`, signed URLs, Azure `?code=`). */
const SECRET_QUERY = /^(key|apikey|auth|sig|signature|code)$/i;

/** True when a URL query parameter carries a credential (`api_key`, `access_token`, `sig`, ...). */
export function isSecretQueryName(name: string): boolean {
  return SECRET_QUERY.test(name) || isSecretName(name);
}

/** isSecretVariable by name: every run of a suite asks about the same environment's names. */
const secretVariableNames = new Map<string, boolean>();

/** The values of secret variables in `env` (long enough to scrub). */
export function secretEnvValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = [];
  for (const name of Object.keys(env)) {
    const value = env[name];
    if (!value || value.length < MIN_SCRUBBED_LENGTH) continue;
    let secret = secretVariableNames.get(name);
    if (secret === undefined) {
      if (secretVariableNames.size >= MAX_REMEMBERED_NAMES) secretVariableNames.clear();
      secretVariableNames.set(name, (secret = isSecretVariable(name)));
    }
    if (secret) values.push(value);
  }
  return values;
}

/** A copy of `value` with secret-named keys replaced by "[redacted]" (deeply). */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redactSecrets) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, isSecretName(key) ? '[redacted]' : redactSecrets(item));
    return out as T;
  }
  return value;
}

/** Secret values shorter than this are not scrubbed from text: too likely to be ordinary words. */
export const MIN_SCRUBBED_LENGTH = 8;

/**
 * The secret values among request headers: the value of every secret-named header
 * (`Authorization`, `x-api-key`, ...) and, for `Bearer <token>` style values, the token alone.
 */
export function secretHeaderValues(headers: Readonly<Record<string, string>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeaderName(name)) continue;
    values.add(value.trim());
    const scheme = /^\s*(?:bearer|basic|token|digest)\s+(.+?)\s*$/i.exec(value);
    if (scheme) values.add(scheme[1]);
  }
  return [...values].filter((value) => value.length >= MIN_SCRUBBED_LENGTH);
}

/** `{{ env.NAME }}` in a header or `external.env` value: the variable it reads. */
const ENV_TEMPLATE = /\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * secretHeaderValues of headers whose values may read the environment as `{{ env.NAME }}` (MCP
 * servers, external agents, http tools), filled from `env` as they will be sent: the credential of a
 * secret-named header is scrubbed whatever its variable is called.
 */
export function envHeaderSecrets(headers: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): string[] {
  return secretHeaderValues(filledFromEnv(headers, env));
}

/**
 * secretEnvValues of an external agent's `external.env`, `{{ env.NAME }}` filled from `env` as
 * the agent gets them: the value of a secret-named variable is scrubbed whatever it is filled from.
 */
export function envVariableSecrets(variables: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): string[] {
  return secretEnvValues(filledFromEnv(variables, env));
}

function filledFromEnv(values: Readonly<Record<string, string>>, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const filled: Record<string, string> = {};
  // Own values only: `{{ env.constructor }}` reads no variable.
  const read = (_whole: string, variable: string) => ownValue(env, variable) ?? '';
  for (const [name, value] of Object.entries(values)) setOwn(filled, name, value.replace(ENV_TEMPLATE, read));
  return filled;
}

/**
 * The credentials inside a URL: the userinfo password and the values of key-like query
 * parameters (`token=`, `api_key=`, `key=`), raw and decoded, so text quoting the URL (an error
 * message, an echoing server) can be scrubbed.
 */
export function secretUrlValues(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const values = new Set<string>();
  if (parsed.password) {
    values.add(parsed.password);
    values.add(decodeURIComponent(parsed.password));
  }
  for (const [name, value] of parsed.searchParams) {
    if (!isSecretQueryName(name)) continue;
    values.add(value);
    values.add(encodeURIComponent(value));
  }
  return [...values].filter((value) => value.length >= MIN_SCRUBBED_LENGTH);
}

/**
 * A copy of `value` in which every occurrence of each secret, in strings and object keys
 * alike, is replaced by "[redacted]" (deeply). For responses that echo a credential back.
 */
export function scrubSecretValues<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  // Longest first, so `Bearer tok-...` goes whole before `tok-...` would split it.
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  const scrubText = (text: string) => ordered.reduce((acc, secret) => (acc.includes(secret) ? acc.split(secret).join('[redacted]') : acc), text);
  const scrub = (item: unknown): unknown => {
    if (typeof item === 'string') return scrubText(item);
    if (Array.isArray(item)) return item.map(scrub);
    if (item && typeof item === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(item)) setOwn(out, scrubText(key), scrub(inner));
      return out;
    }
    return item;
  };
  return scrub(value) as T;
}
