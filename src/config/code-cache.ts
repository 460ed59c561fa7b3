import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { writeCacheEntry } from './cache-folder.js';
import { createFolders } from './create-folders.js';
import { currentV8Flags, restoreV8Flags, withCodeCacheChecksum, type V8FlagSettings } from './v8-flags.js';

/**
 * Runs CommonJS code with V8's code cache, so a later process skips parsing and compiling it
 * (docs/cli.md, Schema cache): the CLI bundle itself (bin/agentcheck.ts) and the generated
 * validators of Ajv (the build's own and those of the schema cache). Node 20 has no compile
 * cache of its own (module.enableCompileCache needs Node 22.1). V8 itself refuses data made by
 * another V8 or under other flags. Anything that goes wrong (no entry, a refused or damaged one,
 * a folder that cannot be written) only means compiling as without a cache.
 */

// Bumped when what an entry holds changes.
const ENTRY_FORMAT = 3;

/**
 * Where a script's cache data is kept: the file, and a tag its content starts with (what the name
 * does not say of the code it was made from: V8 compares only the code's length).
 */
export interface CodeCacheEntry {
  file: string;
  tag: string;
}

interface Pending {
  script: Script;
  entry: CodeCacheEntry;
  // The V8 flags when the script was compiled: a later process checks the entry against those.
  flags: V8FlagSettings;
  // The entry was used but is partial: only a process that succeeds replaces it.
  upgrade: boolean;
}

// Marks, after the tag, an entry written by a process that failed (docs/cli.md, Schema cache).
const PARTIAL = ' partial';
const pending: Pending[] = [];

/** Runs `code` (the text of the CommonJS file `filename`) and returns its `module.exports`. */
export function runCommonJs(code: string, filename: string, require: NodeJS.Require, cacheDir: string | undefined): unknown {
  const module = { exports: {} as unknown };
  const entry = cacheDir === undefined ? undefined : { file: codeCacheEntry(cacheDir, code, currentV8Flags()), tag: '' };
  // CommonJS's wrapper without __filename and __dirname: generated code uses neither.
  runCachedScript(code, { filename, entry, params: { exports: module.exports, require, module } });
  return module.exports;
}

/**
 * Runs `code` as the body of a function whose parameters are the keys of `params`, given their
 * values, compiled with the cache data of `entry` when it holds some for this very code.
 */
export function runCachedScript(code: string, options: { filename: string; entry: CodeCacheEntry | undefined; params: Record<string, unknown> }): void {
  const { filename, entry, params } = options;
  const names = Object.keys(params);
  const found = entry === undefined ? undefined : readEntry(entry);
  const script = withCodeCacheChecksum(() => new Script(`(function (${names.join(', ')}) {${code}\n})`, { filename, cachedData: found?.data }));
  // Written when the process exits: by then the functions the run called are compiled too,
  // and V8 keeps them in the entry (a function's body is compiled on its first call).
  const stale = found === undefined || script.cachedDataRejected === true;
  if (entry !== undefined && (stale || found.partial) && usableFolder(entry.file)) remember({ script, entry, flags: currentV8Flags(), upgrade: !stale });
  (script.runInThisContext() as (...values: unknown[]) => void)(...names.map((name) => params[name]));
}

/**
 * The entry of the CLI script `script` for `command`: one file per command (each keeps the
 * functions its command compiled), per installed copy of agentcheck (two copies sharing a cache
 * folder would otherwise replace each other's entry at every start), and per Node version,
 * architecture and Node options (V8 refuses data made under other flags). It holds `version`,
 * what tells this script's content from another's, so a new build or an edit of the same copy
 * replaces its entry rather than adding one. `node`: the flags of the process that runs the script
 * (this one's unless given: tests name the entries of the CLI processes they start).
 */
export function cliCodeCacheEntry(
  cacheDir: string,
  script: string,
  command: string,
  version: string,
  node: { execArgv: readonly string[]; options: string | undefined } = { execArgv: process.execArgv, options: process.env.NODE_OPTIONS },
): CodeCacheEntry {
  // Not a cryptographic hash: it only tells entries apart, and node:crypto would add ~3 ms to every start.
  const key = fnv1a(`${ENTRY_FORMAT}\0${script}\0${process.arch}\0${node.execArgv.join('\0')}\0${node.options ?? ''}`);
  return { file: join(cacheDir, `cli-${command}-${process.version}-${key}.bin`), tag: version };
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/**
 * The file in `cacheDir` that keeps the compiled form of `code` for this Node version, compiled
 * under the V8 flags `flags` (`run` compiles validators under its heap flag, `validate` without):
 * one entry for both would be refused, and rewritten, by every switch between them.
 */
export function codeCacheEntry(cacheDir: string, code: string, flags: V8FlagSettings = {}): string {
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const key = createHash('sha256')
    .update(`${ENTRY_FORMAT}\0${process.version}\0${process.arch}\0${JSON.stringify(Object.entries(flags).sort())}\0`)
    .update(code)
    .digest('hex');
  return join(cacheDir, `${key}.bin`);
}

/** An entry's data (after its head line) and whether it is marked partial; undefined when missing or of another tag. */
export function readEntry({ file, tag }: CodeCacheEntry): { data: Buffer; partial: boolean } | undefined {
  try {
    const content = readFileSync(file);
    const newline = content.indexOf(0x0a);
    const head = newline < 0 ? undefined : content.subarray(0, newline).toString('latin1');
    if (head !== tag && head !== `${tag}${PARTIAL}`) return undefined;
    return { data: content.subarray(newline + 1), partial: head !== tag };
  } catch {
    return undefined;
  }
}

// Made now rather than at exit, so a folder removed meanwhile (a test's temp folder) is not made again.
function usableFolder(file: string): boolean {
  try {
    createFolders(join(file, '..'));
    return true;
  } catch {
    return false;
  }
}

function remember(entry: Pending): void {
  if (pending.length === 0) process.once('exit', writePending);
  pending.push(entry);
}

function writePending(exitCode: number): void {
  // A process that failed (a config error stops a command before most of it ran) compiled only
  // part of the script: its entry is marked partial, and the next process that succeeds replaces it.
  const partial = exitCode !== 0;
  // `agentcheck run` and user regexes set V8 flags while a command runs (v8-flags.ts); each entry
  // is made under the flags its script was compiled with, which is what the next process, at the
  // same point, checks it against.
  for (const { script, entry, flags, upgrade } of pending.splice(0)) {
    if (upgrade && partial) continue;
    if (restoreV8Flags(flags)) writeEntry(entry, script, partial);
  }
}

function writeEntry({ file, tag }: CodeCacheEntry, script: Script, partial: boolean): void {
  writeCacheEntry(file, () => Buffer.concat([entryHead(tag, partial), withCodeCacheChecksum(() => script.createCachedData())]));
}

/** An entry's head line: its tag, marked when the entry is partial. */
export function entryHead(tag: string, partial: boolean): Buffer {
  return Buffer.from(`${tag}${partial ? PARTIAL : ''}\n`, 'latin1');
}
