import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { writeCacheEntry, yamlCacheDir } from './cache-folder.js';
import { createFolders } from './create-folders.js';

/*
 * The values of large YAML files read before, kept as JSON (docs/cli.md, Schema cache). A suite's
 * scenario files are read at every run, and js-yaml reads them cold, in V8's interpreter: a file of
 * 640 scenarios took 20 ms to parse where JSON.parse of its value takes 1 ms, and the objects
 * JSON.parse makes are also cheaper for the checks that follow (a 1,000-scenario run took about
 * 10% less in all). Only what js-yaml read without a problem is kept, and only a value JSON
 * holds exactly, so a file reads the same with or without the cache; errors are never kept.
 */

/** Texts shorter than this parse in about a millisecond: not worth an entry. */
export const MIN_CACHED_CHARS = 8 * 1024;
/** Entries kept; past this, the oldest are removed (an edited file leaves its old entry behind). */
export const MAX_ENTRIES = 256;
// Bumped when what an entry holds, or how js-yaml is asked to read (parse-source-text.ts), changes.
const ENTRY_FORMAT = 2;
/** Larger entries are not read: config files are limited to a few MB (read-config-file.ts). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

// Set by scripts/bundle-cli.mjs: the version of the js-yaml bundled into the CLI.
declare const AGENTCHECK_YAML_PARSER: string | undefined;

let parser: string | null | undefined;

/**
 * Which js-yaml reads the text: the CLI's bundled copy, else the one the library imports; null
 * when that cannot be told (the library bundled by its user), and then nothing is cached.
 */
function parserIdentity(): string | null {
  if (parser !== undefined) return parser;
  if (typeof AGENTCHECK_YAML_PARSER === 'string') parser = AGENTCHECK_YAML_PARSER;
  else {
    try {
      parser = `js-yaml@${(createRequire(import.meta.url)('js-yaml/package.json') as { version: string }).version}`;
    } catch {
      parser = null;
    }
  }
  return parser;
}

/**
 * The file that keeps the value of `text` read with `options` (what parse-source-text.ts gives
 * js-yaml), or undefined: a short text, or the cache is off (AGENTCHECK_CACHE_DIR=off).
 */
export function yamlCacheEntry(text: string, options: string): string | undefined {
  if (text.length < MIN_CACHED_CHARS) return undefined;
  const dir = yamlCacheDir();
  const identity = parserIdentity();
  if (dir === undefined || identity === null) return undefined;
  // Not `.json`: a cache folder inside a suite (AGENTCHECK_CACHE_DIR=./cache) must not be read as its files.
  return join(dir, `${sha256(`${ENTRY_FORMAT}\0${identity}\0${options}\0`, text)}.parsed`);
}

/**
 * The value kept in `file`, or undefined when there is none or it is not whole: an entry is a
 * checksum line, then the value's JSON; the checksum (of the entry's name and the JSON) must
 * match, so a damaged entry, or one copied under another name, is parsed over, never used. Only a
 * regular file is read (not through a link), so a FIFO or a device there cannot block the run.
 */
export function readYamlEntry(file: string): { value: unknown } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_ENTRY_BYTES) return undefined;
    const content = readFileSync(fd, 'utf8');
    const newline = content.indexOf('\n');
    const json = content.slice(newline + 1);
    if (newline < 0 || content.slice(0, newline) !== entryChecksum(file, json)) return undefined;
    return { value: JSON.parse(json) };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The checksum line of an entry holding `json` under the name of `file`. */
function entryChecksum(file: string, json: string): string {
  return sha256(`${basename(file)}\n`, json);
}

/** The SHA-256 of `head` then `text`, in hex; node:crypto is loaded only here, since it costs every start a few ms and most texts are short. */
function sha256(head: string, text: string): string {
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(head).update(text).digest('hex');
}

/**
 * Keeps `value` in `file` when JSON holds it exactly (no NaN, infinity or -0, which YAML can
 * write and JSON cannot), readable by its owner only (the text may be a file the user keeps
 * private), then removes the oldest entries past MAX_ENTRIES. Never throws: a folder that cannot
 * be written only means no entry.
 */
export function writeYamlEntry(file: string, value: unknown): void {
  if (!exactInJson(value)) return;
  const dir = dirname(file);
  try {
    createFolders(dir);
  } catch {
    return;
  }
  writeCacheEntry(
    file,
    () => {
      const json = JSON.stringify(value);
      return `${entryChecksum(file, json)}\n${json}`;
    },
    0o600,
  );
  pruneYamlEntries(dir);
}

/** Whether JSON.parse(JSON.stringify(value)) is `value` again: js-yaml's values are plain data. */
export function exactInJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(exactInJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key of Object.keys(value)) if (!exactInJson((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** Removes the oldest entries (and left-over temporary files) once the folder holds more than MAX_ENTRIES. */
export function pruneYamlEntries(dir: string): void {
  try {
    const names = readdirSync(dir);
    if (names.length <= MAX_ENTRIES) return;
    const dated = names.map((name) => {
      try {
        return { name, time: statSync(join(dir, name)).mtimeMs };
      } catch {
        return { name, time: 0 };
      }
    });
    dated.sort((a, b) => a.time - b.time);
    // Down to three quarters, so the folder is not listed and pruned again at every new entry.
    for (const { name } of dated.slice(0, names.length - Math.floor((MAX_ENTRIES * 3) / 4))) rmSync(join(dir, name), { force: true });
  } catch {
    // A folder that cannot be listed or pruned only keeps more entries.
  }
}
