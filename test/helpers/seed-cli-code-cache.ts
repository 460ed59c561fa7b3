import { createFolders } from '../../src/config/create-folders.js';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeCacheDir } from '../../src/config/cache-folder.js';
import { cliCodeCacheEntry, entryHead, readEntry } from '../../src/config/code-cache.js';

const BIN = join(import.meta.dirname, '../../dist/bin');

/**
 * Gives a CLI process started with a new code cache folder, or from a copy of dist/bin, the code
 * cache entries of `commands` that the built CLI's processes keep in the checkout's own cache
 * folder, so it does not compile the whole 2.5 MB script again (about 0.15 s of CPU a start),
 * for tests that are not about a first start. `script`: the copy's cli.cjs; `cacheDir`: where it
 * keeps its code cache (the `code` folder). An entry the checkout lacks is left out: that
 * process compiles the script, as it would have anyway. The CLI processes must run with no node
 * flags, with this process's NODE_OPTIONS (runCli's and execa's default).
 */
export function seedCliCodeCache(cacheDir: string, commands: readonly string[], script = join(BIN, 'cli.cjs')): void {
  const source = join(BIN, 'cli.cjs');
  // The build's hash of the script, as the launcher knows it: help.json says it (bin/prerendered-help.ts).
  const hash = (JSON.parse(readFileSync(join(BIN, 'help.json'), 'utf8')) as { cli: string }).cli;
  const version = (file: string) => `${hash} ${statSync(file).size} ${statSync(file).mtimeMs}`;
  const node = { execArgv: [], options: process.env.NODE_OPTIONS };
  for (const command of commands) {
    const from = cliCodeCacheEntry(codeCacheDir({})!, source, command, version(source), node);
    const to = cliCodeCacheEntry(cacheDir, script, command, version(script), node);
    const found = readEntry(from);
    if (found === undefined) continue;
    createFolders(cacheDir);
    // A partial entry (docs/cli.md, Schema cache) stays partial.
    writeFileSync(to.file, Buffer.concat([entryHead(to.tag, found.partial), found.data]));
  }
}
