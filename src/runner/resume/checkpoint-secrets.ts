import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { describeValue } from '../../config/describe-value.js';
import { ConfigError } from '../../config/errors.js';
import { ownValue } from '../../config/own-key.js';
import { isSecretVariable, MIN_SCRUBBED_LENGTH } from '../../config/redact.js';
import { secretForms, uriSpellings } from '../../config/redactor.js';
import { formatPath, type PathSegments } from '../../config/source.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { buildSecrets } from '../secrets/run-secrets.js';

/**
 * What stands for a secret in a checkpoint file (docs/security.md, "Paused runs"):
 * `[secret:NAME]`, `[secret:NAME:uri]` and `[secret:NAME:json]` for the value's raw, URL-encoded
 * and JSON-escaped forms, `:uri-lower`, `:uri-plus`, `:uri-plus-lower` and `:form` for its other
 * URL spellings (NAME URL-encoded). Text that already holds `[secret:` is written
 * `[secret::`, so every marker is read back as exactly what it replaced.
 */
const MARK = '[secret:';
const ESCAPED_MARK = `${MARK}:`;

/**
 * A variable whose value a checkpoint file refers to: a salted scrypt digest of the value, so
 * resume can tell a changed value without the file holding it.
 */
export interface SecretReference {
  salt: string;
  scrypt: string;
}

/** The referenced variables of one checkpoint file, by name. */
export type SecretReferences = Record<string, SecretReference>;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * `value` with the values of the environment's secrets replaced by markers naming their
 * variables, and the variables it refers to. The secrets are those every output of a test_run is
 * scrubbed of that come from the environment: secret variables, and variables whose value the
 * build sends as (part of) a key (an MCP server's header filled from `{{ env.NAME }}`).
 */
export function referToSecrets<T>(value: T, env: Env, build: AgentBuild): { value: T; secrets: SecretReferences } {
  const sent = buildSecrets(build, env);
  const replacements: Array<[string, string]> = [[MARK, ESCAPED_MARK]];
  const names = new Map<string, string>();
  for (const name of Object.keys(env).sort()) {
    const secret = env[name];
    if (!secret || secret.length < MIN_SCRUBBED_LENGTH) continue;
    if (!isSecretVariable(name) && !sent.some((key) => key.includes(secret))) continue;
    for (const [form, suffix] of markedForms(secret)) {
      // Two variables with one value: the first name stands for both.
      if (replacements.some(([text]) => text === form)) continue;
      const marker = `${MARK}${encodeURIComponent(name)}${suffix}]`;
      replacements.push([form, marker]);
      names.set(marker, name);
    }
  }
  const used = new Set<string>();
  const scrubbed = mapStrings(value, [], (text) => substitute(text, replacements, (marker) => used.add(names.get(marker) ?? '')));
  const secrets: SecretReferences = {};
  for (const name of [...names.values()].filter((name) => used.has(name))) secrets[name] ??= digest(env[name] as string);
  return { value: scrubbed, secrets };
}

/**
 * `value` (read from `file`) with its markers replaced by the values of the variables they name
 * in `env`. A variable that is not set, or not set to the value the run paused with, and a
 * marker the file does not list, are ConfigErrors naming it: resume cannot continue the same
 * conversation without it.
 */
export function restoreSecrets<T>(value: T, given: unknown, env: Env, file: string): T {
  const secrets = checkReferences(given, file);
  const values = new Map<string, string>();
  for (const [name, reference] of Object.entries(secrets)) {
    // A variable that is set: a name from the file such as `constructor` is none unless the environment has it.
    const secret = ownValue(env, name);
    if (!secret) {
      throw new ConfigError(
        { file, path: `secrets.${name}` },
        `the paused run holds the value of the secret variable ${name}, which is not set here; resume where ${name} is set as it was when the run paused`,
        'CHECKPOINT_SECRET_MISSING',
      );
    }
    if (!matches(secret, reference)) {
      throw new ConfigError(
        { file, path: `secrets.${name}` },
        `the secret variable ${name} has another value than when the run paused; resume with the value the run paused with`,
        'CHECKPOINT_SECRET_CHANGED',
      );
    }
    for (const [form, suffix] of markedForms(secret)) values.set(`${MARK}${encodeURIComponent(name)}${suffix}]`, form);
  }
  return mapStrings(value, [], (text, path) => restoreText(text, values, file, path));
}

/**
 * The forms a value takes in text (every one the Redactor scrubs but those JSON-escaped more
 * than once, which only span JSON holds), each with its marker suffix; a form equal to an earlier one is
 * left out, so each text has one marker.
 */
function markedForms(secret: string): Array<[string, string]> {
  const [raw, uri, json] = secretForms(secret);
  const forms: Array<[string, string]> = [[raw, '']];
  for (const [form, suffix] of [[uri, ':uri'], [json, ':json'], ...uriSpellings(secret).map(([spelling, name]) => [spelling, `:${name}`])]) {
    if (!forms.some(([text]) => text === form)) forms.push([form, suffix]);
  }
  return forms;
}

/** Every string (object keys too) of `value` through `change`; `path` says where, for errors. */
function mapStrings<T>(value: T, path: PathSegments, change: (text: string, path: PathSegments) => string): T {
  if (typeof value === 'string') return change(value, path) as T;
  if (Array.isArray(value)) return value.map((item, index) => mapStrings(item, [...path, index], change)) as T;
  if (value && typeof value === 'object') {
    // fromEntries defines each key as an own property, `__proto__` included (a model's argument may be called that).
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [change(key, path), mapStrings(item, [...path, key], change)])) as T;
  }
  return value;
}

/**
 * `text` with each occurrence of a replacement's text replaced, scanning left to right and taking
 * the longest at a position (one pass: a replaced value is never looked at again).
 */
function substitute(text: string, replacements: ReadonlyArray<[string, string]>, onMarker: (marker: string) => void): string {
  const next = replacements.map(([from]) => text.indexOf(from));
  if (next.every((at) => at < 0)) return text;
  let out = '';
  let done = 0;
  for (;;) {
    let best = -1;
    for (let k = 0; k < replacements.length; k++) {
      if (next[k] < 0) continue;
      if (best < 0 || next[k] < next[best] || (next[k] === next[best] && replacements[k][0].length > replacements[best][0].length)) best = k;
    }
    if (best < 0) return out + text.slice(done);
    const [from, to] = replacements[best];
    out += text.slice(done, next[best]) + to;
    if (to !== ESCAPED_MARK) onMarker(to);
    done = next[best] + from.length;
    for (let k = 0; k < replacements.length; k++) if (next[k] >= 0 && next[k] < done) next[k] = text.indexOf(replacements[k][0], done);
  }
}

/** `text` with its markers read back (`values`: marker -> text), `[secret::` back to `[secret:`. */
function restoreText(text: string, values: ReadonlyMap<string, string>, file: string, path: PathSegments): string {
  let at = text.indexOf(MARK);
  if (at < 0) return text;
  let out = '';
  let done = 0;
  while (at >= 0) {
    out += text.slice(done, at);
    if (text.startsWith(ESCAPED_MARK, at)) {
      out += MARK;
      done = at + ESCAPED_MARK.length;
    } else {
      const end = text.indexOf(']', at);
      const marker = end < 0 ? text.slice(at) : text.slice(at, end + 1);
      const secret = values.get(marker);
      if (secret === undefined) {
        const listed = [...values.keys()];
        throw new ConfigError(
          { file, path: formatPath(path) || undefined },
          `expected a secret marker the file lists under secrets (${listed.length ? listed.join(', ') : 'none'}), got ${JSON.stringify(marker.slice(0, 200))}`,
        );
      }
      out += secret;
      done = at + marker.length;
    }
    at = text.indexOf(MARK, done);
  }
  return out + text.slice(done);
}

/** A salted scrypt digest: a short or guessable secret is not given away by its hash. */
function digest(secret: string, salt = randomBytes(16).toString('hex')): SecretReference {
  return { salt, scrypt: scryptSync(secret, salt, 32).toString('hex') };
}

function matches(secret: string, reference: SecretReference): boolean {
  const expected = Buffer.from(reference.scrypt, 'hex');
  const actual = Buffer.from(digest(secret, reference.salt).scrypt, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The file's `secrets`: `{NAME: {salt, scrypt}}`; absent is none. */
function checkReferences(given: unknown, file: string): SecretReferences {
  if (given === undefined) return {};
  if (!given || typeof given !== 'object' || Array.isArray(given)) {
    throw new ConfigError({ file, path: 'secrets' }, `expected the referenced secret variables {NAME: {salt, scrypt}}, got ${describeValue(given)}`);
  }
  for (const [name, reference] of Object.entries(given)) {
    const { salt, scrypt } = (reference ?? {}) as Partial<SecretReference>;
    if (typeof salt !== 'string' || typeof scrypt !== 'string' || !/^[0-9a-f]{64}$/.test(scrypt)) {
      throw new ConfigError({ file, path: `secrets.${name}` }, `expected {salt, scrypt} (scrypt: 64 hex digits), got ${describeValue(reference)}`);
    }
  }
  return given as SecretReferences;
}
