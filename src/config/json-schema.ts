import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { quoteCapped } from './cap-text.js';
import { hashValue } from './canonical-json.js';
import { closestWord } from './did-you-mean.js';
import { runCommonJs } from './code-cache.js';
import { codeCacheDir, readCachedValidator, schemaCacheDir, userSchemaCacheKey, writeCachedValidator } from './schema-cache.js';
import type { PathSegments } from './source.js';
import { scrubCredentialShapes } from './redactor.js';
import { addStandardFormats, STANDARD_FORMATS_MODE } from './standard-formats.js';
import { objectShapeWords, STRING_MEANS } from './string-means.js';

/**
 * Which Ajv compiles a user-supplied schema: `tool` for tool parameters, whose standard formats
 * are checked (an unknown format is ignored there: a server's schema may use any, and an agent
 * build's are checked at load, docs/formats.md, Tools); `plain` for the schemas of checks
 * (`$schema` matchers, output and custom checks), where `format` is an annotation.
 */
export type UserSchemaKind = 'plain' | 'tool';

/**
 * One Ajv per kind for user-supplied schemas. Neither checks schemas against the meta-schema
 * itself: userSchemaProblem does that first, with the build's precompiled meta-schema
 * validator, so start-up skips compiling it.
 */
const USER_AJV_OPTIONS: Record<UserSchemaKind, object> = {
  plain: { strict: false, allErrors: false, validateFormats: false, verbose: true, validateSchema: false },
  // No logger: an unknown format is ignored without a warning on stderr.
  tool: { strict: false, allErrors: false, validateFormats: true, logger: false, verbose: true, validateSchema: false },
};
// What keys the schema cache: the options, and for tools how formats are checked.
const USER_CACHE_OPTIONS: Record<UserSchemaKind, object> = {
  plain: USER_AJV_OPTIONS.plain,
  tool: { ...USER_AJV_OPTIONS.tool, formats: STANDARD_FORMATS_MODE },
};
const userAjvInstances: Partial<Record<UserSchemaKind, Ajv>> = {};
const userAjv = (kind: UserSchemaKind): Ajv => {
  let ajv = userAjvInstances[kind];
  if (ajv) return ajv;
  // code.source keeps each validator's code, for the schema cache.
  ajv = newAjv({ ...USER_AJV_OPTIONS[kind], code: { source: true } });
  if (kind === 'tool') addStandardFormats(ajv);
  return (userAjvInstances[kind] = ajv);
};
/** An http(s) URL with a host: the pattern of the format's endpoint keys (an llm's `base_url`). */
export const HTTP_URL_PATTERN = '^https?://[^\\s/?#@]+([/?#]|$)';

/** A flow state key, `target:key.sub`: a channel, a colon, then keys joined by single dots (none empty). */
export const IO_KEY_PATTERN = '^[a-z_]+:[^.]+(\\.[^.]+)*$';

/** What a format pattern means, in words, for its error message. */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [IO_KEY_PATTERN]: 'a state key such as "context:name.key": a channel, a colon, then keys joined by single dots',
  [HTTP_URL_PATTERN]:
    "an http:// or https:// URL such as https://api.openai.com/v1, without user:password@ (fetch refuses it; the key goes in the provider's API key variable)",
};

/** Key of the precompiled JSON Schema (draft-07) meta-schema validator. */
export const META_SCHEMA_KEY = 'agentcheck:json-schema-draft-07';
let metaAjv: Ajv | undefined;
/**
 * Options of the Ajv for agentcheck's own formats: strict, since we write those schemas ourselves;
 * allErrors: a file's every problem is reported in one pass (reduceSchemaErrors makes them one
 * message each); keywords: annotations of our own that only shape error messages (STRING_MEANS).
 */
export const FORMAT_AJV_OPTIONS = {
  strict: true,
  strictTypes: false,
  allErrors: true,
  allowUnionTypes: true,
  verbose: true,
  keywords: [STRING_MEANS],
};
let formatAjvInstance: Ajv | undefined;
const formatAjv = () => (formatAjvInstance ??= newAjv(FORMAT_AJV_OPTIONS));

/** A new Ajv; the package loads on first use, since a run of precompiled validators never needs it. */
function newAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  return new AjvClass(options);
}

const userCache: Record<UserSchemaKind, WeakMap<object, ValidateFunction>> = { plain: new WeakMap(), tool: new WeakMap() };
const userByKey = new Map<string, ValidateFunction>();
const formatCache = new WeakMap<object, ValidateFunction>();

/**
 * Compiles a user JSON Schema once per schema object and kind; throws with Ajv's reason when
 * invalid. A schema compiled before (by any run) loads from the schema cache without Ajv (schema-cache.ts).
 */
export function compileUserSchema(schema: object, kind: UserSchemaKind = 'plain'): ValidateFunction {
  let validate = userCache[kind].get(schema);
  if (validate) return validate;
  const dir = schemaCacheDir();
  // No key for a schema the cache may not hold ($id, outside $ref): it is compiled every time.
  const key = dir === undefined ? undefined : userSchemaCacheKey(schema, USER_CACHE_OPTIONS[kind]);
  const entry = dir !== undefined && key !== undefined ? { dir, key } : undefined;
  // Equal schemas in other objects (each delta's copy of a build) share one entry per process.
  validate = entry && (userByKey.get(entry.key) ?? readCachedValidator(entry.dir, entry.key));
  if (!validate) {
    const ajv = userAjv(kind);
    const compiled = ajv.compile(schema);
    if (entry) writeCachedValidator(entry.dir, entry.key, () => standaloneCode(ajv, compiled));
    validate = compiled;
  }
  if (entry) userByKey.set(entry.key, validate);
  userCache[kind].set(schema, validate);
  return validate;
}

/** Ajv's standalone code of a compiled validator (loaded only when an entry is written). */
function standaloneCode(ajv: Ajv, validate: ValidateFunction): string {
  const generate = createRequire(import.meta.url)('ajv/dist/standalone') as typeof import('ajv/dist/standalone/index.js');
  return (generate.default ?? generate)(ajv, validate);
}

/** Ajv's full error list of `schema` against the JSON Schema meta-schema (draft-07); empty when it conforms. */
export function metaSchemaErrors(schema: object): ErrorObject[] {
  const checkMeta = precompiled(META_SCHEMA_KEY);
  if (checkMeta) return checkMeta(schema) ? [] : [...(checkMeta.errors ?? [])];
  // Running from sources: the same options as the precompiled validator, so the errors are the same.
  metaAjv ??= newAjv({ ...FORMAT_AJV_OPTIONS, strict: false, validateFormats: false });
  return metaAjv.validateSchema(schema) ? [] : [...(metaAjv.errors ?? [])];
}

/**
 * One of agentcheck's own format schemas as a validator, a type guard for `T` (the type generated
 * from that schema, docs/architecture.md, Formats): the build's precompiled one
 * (scripts/precompile-schemas.mjs), found by the schema's content hash so a changed schema
 * never meets stale code, else compiled now. Cached per schema object.
 */
export function compileFormatSchema<T = unknown>(schema: object): ValidateFunction<T> {
  let validate = formatCache.get(schema);
  if (!validate) {
    validate = precompiled(formatSchemaKey(schema)) ?? formatAjv().compile(schema);
    formatCache.set(schema, validate);
  }
  // The one place a schema meets its type: T is generated from this schema (npm run generate:types).
  return validate as ValidateFunction<T>;
}

/** The key a format schema's precompiled validator is stored under. */
export function formatSchemaKey(schema: object): string {
  return `agentcheck:${hashValue(schema)}`;
}

/** The file (in `format-validators/`) holding the build's precompiled validator under `key`. */
export function precompiledFileName(key: string): string {
  return `${key.replace(/[^A-Za-z0-9-]/g, '-')}.cjs`;
}

const generated = new Map<string, ValidateFunction | undefined>();

// The CLI bundle (scripts/bundle-cli.mjs) lives in dist/bin and defines where the validators are;
// the unbundled library finds them next to this module.
declare const AGENTCHECK_FORMAT_VALIDATORS: string | undefined;
const validatorsFolder = typeof AGENTCHECK_FORMAT_VALIDATORS === 'string' ? AGENTCHECK_FORMAT_VALIDATORS : './format-validators/';

/**
 * The build's generated validator under `key`, or undefined (running from sources, or a schema
 * changed since the build). One file per schema: a command loads only the validators it uses.
 */
function precompiled(key: string): ValidateFunction | undefined {
  if (!generated.has(key)) {
    let validate: ValidateFunction | undefined;
    try {
      const file = fileURLToPath(new URL(`${validatorsFolder}${precompiledFileName(key)}`, import.meta.url));
      const exported = runCommonJs(readFileSync(file, 'utf8'), file, createRequire(file), codeCacheDir()) as Record<string, ValidateFunction>;
      validate = exported[key];
    } catch {
      validate = undefined;
    }
    generated.set(key, validate);
  }
  return generated.get(key);
}

/** A schema violation translated to a path and a sentence saying what was expected. */
export interface SchemaProblem {
  path: PathSegments;
  expected: string;
  /** true when the path names a key that should not be there (locate the key, not its value). */
  atKey: boolean;
  /** The part of the value the problem is about: `path`, or for a missing key, that key's path. */
  subject: PathSegments;
}

/** Validates `value` against a user schema; returns the problems in readable form. */
export function userSchemaProblems(schema: object, value: unknown, kind: UserSchemaKind = 'plain'): SchemaProblem[] {
  const validate = compileUserSchema(schema, kind);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => describeSchemaError(error, value));
}

/** Turns an Ajv error into a located, readable problem. */
export function describeSchemaError(error: ErrorObject, root: unknown): SchemaProblem {
  const path = pointerToPath(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  const at = (expected: string): SchemaProblem => ({ path, expected, atKey: false, subject: path });
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const allowed = allowedKeys(error);
      const near = closestWord(key, allowed);
      const suggestion = near === undefined ? '' : ` (did you mean "${near}"?)`;
      const hint = allowed.length ? `; expected one of: ${allowed.join(', ')}` : '';
      const keyPath = [...path, key];
      return { path: keyPath, expected: `unknown key ${quoteCapped(key)}${suggestion}${hint}`, atKey: true, subject: keyPath };
    }
    case 'required':
      return { path, expected: `missing required key "${String(params.missingProperty)}"`, atKey: false, subject: [...path, String(params.missingProperty)] };
    case 'type': {
      // A list of types reads as words: "string or number", not "string,number".
      const types = (Array.isArray(params.type) ? (params.type as unknown[]).map(String) : String(params.type).split(',')).join(' or ');
      const value = valueAt(root, path);
      const shape = objectShapeWords(error.parentSchema, value);
      if (shape) return at(`expected ${shape.expected}, got ${describeValue(value)}${shape.hint}`);
      return at(`expected ${types}, got ${describeValue(value)}`);
    }
    case 'enum':
      return at(`expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(' | ')}, got ${describeValue(valueAt(root, path))}`);
    case 'const':
      return at(`expected ${JSON.stringify(params.allowedValue)}, got ${describeValue(valueAt(root, path))}`);
    case 'pattern': {
      const words = PATTERN_WORDS[String(params.pattern)] ?? `a string matching ${String(params.pattern)}`;
      // A refused URL may hold a password or a token: echoed without them.
      return at(`expected ${words}, got ${scrubCredentialShapes(describeValue(valueAt(root, path)))}`);
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at(`expected a number ${String(params.comparison)} ${String(params.limit)}, got ${describeValue(valueAt(root, path))}`);
    case 'format':
      return at(`expected format ${JSON.stringify(params.format)}, got ${describeValue(valueAt(root, path))}`);
    case 'minItems':
      return at(`expected at least ${String(params.limit)} item(s)`);
    case 'maxItems':
      return at(`expected at most ${String(params.limit)} item(s)`);
    case 'minLength':
      return at(`expected a string of at least ${String(params.limit)} character(s)`);
    case 'maxLength':
      return at(`expected a string of at most ${String(params.limit)} character(s)`);
    case 'uniqueItems': {
      // Ajv's i and j are the two equal items' indexes, the later one first.
      const [later, earlier] = [Number(params.i), Number(params.j)].sort((a, b) => b - a);
      return at(`expected no item twice; items ${earlier} and ${later} are the same (${describeValue(valueAt(root, [...path, later]))})`);
    }
    case 'minProperties':
      return at(`expected at least ${String(params.limit)} key(s)`);
    case 'maxProperties': {
      // Which keys: one of them is usually a stray or misplaced key (a check item holds one kind).
      const value = valueAt(root, path);
      const keys = value && typeof value === 'object' ? Object.keys(value) : [];
      return at(`expected at most ${String(params.limit)} key(s), got ${keys.length}: ${keys.map((key) => quoteCapped(key)).join(', ')}`);
    }
    default:
      return at(`expected value that ${error.message ?? 'matches the schema'}`);
  }
}

/** The keys the object schema of an `additionalProperties` error names (Ajv's `verbose` gives the schema). */
export function allowedKeys(error: ErrorObject): string[] {
  return Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
}

/** Short description of a value for "got ..." clauses. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `${typeof value} ${shown}`;
}

function pointerToPath(pointer: string, root: unknown): PathSegments {
  if (!pointer) return [];
  const out: Array<string | number> = [];
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = Number(key);
      out.push(index);
      current = current[index];
    } else {
      out.push(key);
      current = current && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined;
    }
  }
  return out;
}

/** The value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: PathSegments): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
