#!/usr/bin/env node
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliCodeCacheEntry, runCachedScript } from '../src/config/code-cache.js';
import { codeCacheDir } from '../src/config/cache-folder.js';
import { keepBytecode } from '../src/config/v8-flags.js';
import { watchStdioErrors } from '../src/config/stdio-errors.js';
import { HELP_FLAGS } from '../src/config/help-flags.js';
import { prerenderedHelp } from './prerendered-help.js';

// The `agentcheck` command. The CLI itself (bin/cli.ts) is bundled into one CommonJS script,
// cli.cjs beside this file, which runs here through V8's code cache: Node 20 compiles ES modules
// anew at every start, and that compiling was most of a cold start (docs/architecture.md, Build).

/** The commands of bin/cli.ts: each keeps a cache entry of its own (any other word shares one). */
const COMMANDS = ['run', 'test-run', 'resume', 'validate', 'init', 'mcp', 'spans', 'compare', 'merge'];

// Set by scripts/bundle-cli.mjs: the hash of cli.cjs, so an entry made by another build is never used.
declare const AGENTCHECK_CLI_HASH: string;

const dir = dirname(fileURLToPath(import.meta.url));
const filename = join(dir, 'cli.cjs');
// A command's help compiles little of it: it would leave the command's entry small.
const help = process.argv.some((arg) => HELP_FLAGS.has(arg));
const command = COMMANDS.includes(process.argv[2] ?? '') && !help ? process.argv[2]! : 'other';
// V8 compares only the length of the code: an edit of the installed script (a patch) that keeps
// its length would run the old code from the cache. The file's time and size tell it apart.
const { size, mtimeMs } = statSync(filename);
const helpText = prerenderedHelp(process.argv.slice(2), join(dir, 'help.json'), { hash: AGENTCHECK_CLI_HASH, size });
if (helpText === undefined) runCli();
else {
  // As the CLI does: `agentcheck --help | head` closing the pipe early is no error, `> /dev/full` one.
  watchStdioErrors();
  process.stdout.write(helpText);
}

function runCli(): void {
  const cacheDir = codeCacheDir();
  const module = { exports: {} };
  // The cache entry is written when the process ends: bytecode V8 dropped by then would be missing
  // from it, and a long run (a suite, the MCP server) would leave every later start slower.
  keepBytecode();
  // The script is ASCII (scripts/bundle-cli.mjs): read as latin1 it is the same text, without the
  // cost of decoding UTF-8 (a few ms for 2.5 MB at every start).
  runCachedScript(readFileSync(filename, 'latin1'), {
    filename,
    entry: cacheDir === undefined ? undefined : cliCodeCacheEntry(cacheDir, filename, command, `${AGENTCHECK_CLI_HASH} ${size} ${mtimeMs}`),
    params: {
      exports: module.exports,
      require: createRequire(filename),
      module,
      __filename: filename,
      __dirname: dir,
      // import() inside the script could not load an ES module (a custom check module); this one can.
      __agentcheckImport: (url: string) => import(url),
    },
  });
}
