import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where agentcheck keeps its caches on disk, the compiled schemas (schema-cache.ts), V8's code
 * caches (code-cache.ts) and parsed YAML files (parsed-yaml-cache.ts), and how an entry is
 * written (docs/cli.md, Schema cache). Light on purpose: the CLI's launcher loads it before
 * anything else.
 */

/** Environment variable naming the cache folder; `off` turns the cache off. */
export const CACHE_DIR_ENV = 'AGENTCHECK_CACHE_DIR';
/** The folder of compiled schemas, or undefined when the cache is off. */
export function schemaCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  return cacheFolder('schemas', env);
}

/** The folder of V8 code caches (code-cache.ts), or undefined when the cache is off. */
export function codeCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  return cacheFolder('code', env);
}

/** The folder of parsed YAML files (parsed-yaml-cache.ts), or undefined when the cache is off. */
export function yamlCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  return cacheFolder('yaml', env);
}

function cacheFolder(name: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const chosen = env[CACHE_DIR_ENV];
  if (chosen?.trim().toLowerCase() === 'off') return undefined;
  return join(chosen || defaultCacheRoot(), name);
}

let defaultRoot: string | undefined;

/**
 * `node_modules/.cache/agentcheck` of the project agentcheck is installed in (the convention of
 * build tools): the `node_modules` folder agentcheck sits in, else (a checkout of agentcheck
 * itself) the nearest `node_modules` folder above this file.
 */
function defaultCacheRoot(): string {
  if (defaultRoot) return defaultRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  let nearest: string | undefined;
  for (;;) {
    if (basename(dir) === 'node_modules') {
      nearest = dir;
      break;
    }
    if (!nearest && existsSync(join(dir, 'node_modules'))) nearest = join(dir, 'node_modules');
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  defaultRoot = join(nearest ?? join(process.cwd(), 'node_modules'), '.cache', 'agentcheck');
  return defaultRoot;
}

let written = 0;

/**
 * Writes a cache entry into its folder, which the caller made: to a temporary name renamed into
 * place, so a reader never sees half an entry, even when concurrent processes store the same one.
 * A folder that cannot be written, or is gone, is left alone: the entry is only not kept.
 * `mode`: the entry's permissions (default 0o666 less the umask).
 */
export function writeCacheEntry(file: string, data: () => string | Uint8Array, mode?: number): void {
  const temporary = `${file}.${process.pid}.${written++}.tmp`;
  try {
    writeFileSync(temporary, data(), { mode });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written: the folder is not usable.
    }
  }
}
