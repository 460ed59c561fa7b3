import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { runCommonJs } from './code-cache.js';
import { codeCacheDir, writeCacheEntry } from './cache-folder.js';
import { createFolders } from './create-folders.js';

/**
 * A cache on disk of compiled user JSON Schemas (tool parameters, `$schema` matchers, output
 * checks) as Ajv standalone code, so a run whose schemas were compiled before does not load Ajv
 * at all (docs/cli.md, Schema cache). An entry is keyed by a hash of the schema's JSON
 * text, the Ajv version and its options, so a changed schema or Ajv never meets stale code.
 * Anything that goes wrong with the cache (a folder that cannot be written, a damaged entry)
 * only means compiling the schema as if there were no cache.
 */

// Bumped when the entry format (the code around Ajv's) changes.
const ENTRY_FORMAT = 1;

const require = createRequire(import.meta.url);

/**
 * The cache key of a user schema compiled with `options`, or undefined when the schema may not
 * be cached: one with `$id` or a `$ref` outside itself compiles differently depending on what
 * else this process compiled (an id already taken, a reference to another schema's id).
 */
export function userSchemaCacheKey(schema: object, options: object): string | undefined {
  if (!selfContained(schema)) return undefined;
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  // The schema's own JSON text, key order included: the order decides which error comes first.
  return createHash('sha256')
    .update(JSON.stringify([ENTRY_FORMAT, ajvVersion, options, schema]))
    .digest('hex');
}

function selfContained(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(selfContained);
  if (!value || typeof value !== 'object') return true;
  for (const [key, child] of Object.entries(value)) {
    if (key === '$id') return false;
    if (key === '$ref' && (typeof child !== 'string' || !child.startsWith('#'))) return false;
    if (!selfContained(child)) return false;
  }
  return true;
}

/** The cached validator under `key`, or undefined (no entry, or one that does not load). */
export function readCachedValidator(dir: string, key: string): ValidateFunction | undefined {
  let code: string;
  try {
    code = readFileSync(join(dir, `${key}.cjs`), 'utf8');
  } catch {
    return undefined;
  }
  try {
    // Ajv's standalone code is a CommonJS module; its require is ours, so Ajv's small runtime
    // helpers resolve from agentcheck wherever the cache folder is.
    const exported = runCommonJs(code, join(dir, `${key}.cjs`), require, codeCacheDir());
    return typeof exported === 'function' ? (exported as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores a validator's standalone code under `key`; a folder that cannot be written is left alone. */
export function writeCachedValidator(dir: string, key: string, code: () => string): void {
  try {
    // Not mkdirSync's recursive mode: it never returns on some paths (/proc/...) on Node 20.
    createFolders(dir);
  } catch {
    return;
  }
  writeCacheEntry(join(dir, `${key}.cjs`), code);
}
