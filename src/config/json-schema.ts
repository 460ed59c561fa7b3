import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { hashValue } from './canonical-json.js';
import { runCommonJs } from './code-cache.js';
import { codeCacheDir, schemaCacheDir } from './cache-folder.js';
import { readCachedValidator, userSchemaCacheKey, writeCachedValidator } from './schema-cache.js';
import { addStandardFormats, STANDARD_FORMATS_MODE } from './standard-formats.js';
import { reduceSchemaErrors } from './reduce-schema-errors.js';
import { describeSchemaError, type SchemaProblem } from './schema-problem.js';
import { STRING_MEANS } from './string-means.js';
import { TYPE_WORDS } from './type-words.js';

/**
 * Which Ajv compiles a user-supplied schema: `tool` for tool parameters, whose standard formats
 * are checked (an unknown format is ignored there: a server's schema may use any, and an agent
 * build's are checked at load, docs/formats.md, Tools); `plain` for the schemas of checks
 * (`$schema` matchers, output checks), where `format` is an annotation; `params` is `plain` with
 * every error, for a value a user wrote in a file (a custom check's params), told all at once.
 */
export type UserSchemaKind = 'plain' | 'tool' | 'params';

/**
 * One Ajv per kind for user-supplied schemas. Neither checks schemas against the meta-schema
 * itself: userSchemaProblem does that first, with the build's precompiled meta-schema
 * validator, so start-up skips compiling it. ownProperties: a property named `constructor` or
 * `toString` is present only when the value has it, never read from Object.prototype.
 */
const USER_AJV_OPTIONS: Record<UserSchemaKind, object> = {
  plain: { strict: false, allErrors: false, validateFormats: false, verbose: true, validateSchema: false, ownProperties: true },
  // No logger: an unknown format is ignored without a warning on stderr.
  tool: { strict: false, allErrors: false, validateFormats: true, logger: false, verbose: true, validateSchema: false, ownProperties: true },
  params: { strict: false, allErrors: true, validateFormats: false, verbose: true, validateSchema: false, ownProperties: true },
};
// What keys the schema cache: the options, and for tools how formats are checked.
const USER_CACHE_OPTIONS: Record<UserSchemaKind, object> = {
  plain: USER_AJV_OPTIONS.plain,
  tool: { ...USER_AJV_OPTIONS.tool, formats: STANDARD_FORMATS_MODE },
  params: USER_AJV_OPTIONS.params,
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
/** Key of the precompiled JSON Schema (draft-07) meta-schema validator. */
export const META_SCHEMA_KEY = 'agentcheck:json-schema-draft-07';
let metaAjv: Ajv | undefined;
/**
 * Options of the Ajv for agentcheck's own formats: strict, since we write those schemas ourselves;
 * allErrors: a file's every problem is reported in one pass (reduceSchemaErrors makes them one
 * message each); keywords: annotations of our own that only shape error messages (STRING_MEANS, TYPE_WORDS).
 */
export const FORMAT_AJV_OPTIONS = {
  strict: true,
  strictTypes: false,
  allErrors: true,
  allowUnionTypes: true,
  verbose: true,
  keywords: [STRING_MEANS, TYPE_WORDS],
};
let formatAjvInstance: Ajv | undefined;
const formatAjv = () => (formatAjvInstance ??= newAjv(FORMAT_AJV_OPTIONS));

/** A new Ajv; the package loads on first use, since a run of precompiled validators never needs it. */
/**
 * An Ajv with the options the MCP SDK gives the one that checks tool results (strict off, formats
 * checked, every error) and no logger: an unknown format in a server's output schema is ignored
 * without a warning on stderr, as in its input schemas (docs/formats.md).
 */
export function mcpResultAjv(): Ajv {
  const ajv = newAjv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, logger: false });
  addStandardFormats(ajv);
  return ajv;
}

function newAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  return new AjvClass(options);
}

const userCache: Record<UserSchemaKind, WeakMap<object, ValidateFunction>> = { plain: new WeakMap(), tool: new WeakMap(), params: new WeakMap() };
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

/**
 * Every problem of a value a user wrote in a file (a custom check's params) against a user
 * schema, one readable message per value (reduceSchemaErrors), in one pass.
 */
export function paramsSchemaProblems(schema: object, value: unknown): SchemaProblem[] {
  const validate = compileUserSchema(schema, 'params');
  if (validate(value)) return [];
  return reduceSchemaErrors(validate.errors ?? [], value);
}

/** Validates `value` against a user schema; returns the problems in readable form. */
export function userSchemaProblems(schema: object, value: unknown, kind: UserSchemaKind = 'plain'): SchemaProblem[] {
  const validate = compileUserSchema(schema, kind);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => describeSchemaError(error, value));
}
