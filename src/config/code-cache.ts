import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { createFolders } from './create-folders.js';

/**
 * Runs generated CommonJS code (Ajv's standalone validators: the build's own and those of the
 * schema cache) with V8's code cache, so a later process skips parsing and compiling it
 * (docs/cli.md, Schema cache). Node 20 has no compile cache of its own (module.enableCompileCache
 * needs Node 22.1). An entry is keyed by the code's text, Node's version and the architecture;
 * V8 itself refuses data made with other flags. Anything that goes wrong (no entry, a refused or
 * damaged one, a folder that cannot be written) only means compiling as without a cache.
 */

// Bumped when what an entry holds changes.
const ENTRY_FORMAT = 1;
// The CommonJS wrapper, without Node's __filename/__dirname: generated code uses neither.
const WRAPPER_START = '(function (exports, require, module) {';

interface Pending {
  script: Script;
  file: string;
}
const pending: Pending[] = [];

/** Runs `code` (the text of the CommonJS file `filename`) and returns its `module.exports`. */
export function runCommonJs(code: string, filename: string, require: NodeJS.Require, cacheDir: string | undefined): unknown {
  const file = cacheDir === undefined ? undefined : codeCacheEntry(cacheDir, code);
  const cachedData = file === undefined ? undefined : readEntry(file);
  const script = new Script(`${WRAPPER_START}${code}\n})`, { filename, cachedData });
  // Written when the process exits: by then the functions the run called are compiled too,
  // and V8 keeps them in the entry (a validator's body is compiled on its first call).
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  if (file !== undefined && cacheDir !== undefined && stale && usableFolder(cacheDir)) remember({ script, file });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown) => void)(module.exports, require, module);
  return module.exports;
}

/** The file in `cacheDir` that keeps the compiled form of `code` for this Node version. */
export function codeCacheEntry(cacheDir: string, code: string): string {
  const key = createHash('sha256').update(`${ENTRY_FORMAT}\0${process.version}\0${process.arch}\0`).update(code).digest('hex');
  return join(cacheDir, `${key}.bin`);
}

function readEntry(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

// Made now rather than at exit, so a folder removed meanwhile (a test's temp folder) is not made again.
function usableFolder(dir: string): boolean {
  try {
    createFolders(dir);
    return true;
  } catch {
    return false;
  }
}

function remember(entry: Pending): void {
  if (pending.length === 0) process.once('exit', writePending);
  pending.push(entry);
}

function writePending(): void {
  for (const { script, file } of pending.splice(0)) writeEntry(file, script);
}

function writeEntry(file: string, script: Script): void {
  // A temporary name renamed into place: a reader never sees half an entry, even when
  // concurrent processes store the same code.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written: the folder is not usable.
    }
  }
}
