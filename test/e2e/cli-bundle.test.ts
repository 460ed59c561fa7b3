import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CACHE_DIR_ENV } from '../../src/config/cache-folder.js';
import { runMain } from '../helpers/run-main.js';
import { seedCliCodeCache } from '../helpers/seed-cli-code-cache.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, ROOT, runCli } from './cli.js';

// The CLI ships as one esbuild bundle run by a launcher (scripts/bundle-cli.mjs; docs/architecture.md, Build).
const BIN = join(ROOT, 'dist/bin');
const SCRIPT = join(BIN, 'cli.cjs');

describe('the CLI bundle', () => {
  it('initialises every module it holds, including those no test command reaches (a dependency that needs a file or require() fails here)', async () => {
    const source = readFileSync(SCRIPT, 'utf8');
    // Each module of the bundle initialises lazily, in a function esbuild names init_* or require_*.
    const inits = [...new Set([...source.matchAll(/\b((?:init|require)_[\w$]+) ?= ?__(?:esm|commonJS)\(/g)].map((match) => match[1]))];
    expect(inits.length).toBeGreaterThan(500);
    // Run as the launcher runs it (bin/agentcheck.ts), for --version, then call every initialiser.
    const probe = `const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { Script } = require('node:vm');
const file = ${JSON.stringify(SCRIPT)};
const code = readFileSync(file, 'utf8') + '\\n;for (const init of [${inits.join(', ')}]) init(); console.log("initialised ${inits.length}");';
const module = { exports: {} };
new Script('(function (exports, require, module, __filename, __dirname, __agentcheckImport) {' + code + '\\n})', { filename: file })
  .runInThisContext()(module.exports, createRequire(file), module, file, ${JSON.stringify(BIN)}, (url) => import(url));
`;
    const run = await execa('node', ['-e', probe, 'agentcheck', '--version'], { reject: false, cwd: ROOT });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')).toContain(`initialised ${inits.length}`);
  }, 60_000);

  it('lists the sources of the bundle, and finds the precompiled validators where the build put them', () => {
    const listed = JSON.parse(readFileSync(join(ROOT, 'dist/cli-chunks.json'), 'utf8')) as Record<string, string[]>;
    expect(Object.keys(listed)).toEqual(['cli.cjs']);
    expect(readdirSync(BIN).sort()).toEqual(['agentcheck.js', 'cli.cjs', 'help.json', 'package.json']);
    expect(listed['cli.cjs']).toContain('bin/cli.ts');
    expect(listed['cli.cjs']).toContain('src/config/json-schema.ts');
    // The bundle finds the validators relative to dist/bin.
    const folder = /"(\.\.\/src\/config\/format-validators\/)"/.exec(readFileSync(SCRIPT, 'utf8'))?.[1];
    expect(folder).toBe('../src/config/format-validators/');
    expect(readdirSync(join(BIN, folder!)).filter((file) => file.endsWith('.cjs')).length).toBeGreaterThan(40);
    // Both files are CommonJS in a "type": "module" package: the folder says so. They are strict,
    // as the ES module sources are: "use strict" comes first (after the launcher's #! line).
    expect(JSON.parse(readFileSync(join(BIN, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    expect(readFileSync(SCRIPT, 'utf8')).toMatch(/^'use strict';\n/);
    // ASCII only: the launcher reads the script as latin1.
    expect(readFileSync(SCRIPT).every((byte) => byte < 0x80)).toBe(true);
    expect(readFileSync(join(BIN, 'agentcheck.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n'use strict';\n/);
    expect(existsSync(join(BIN, 'agentcheck.d.ts'))).toBe(false);
  });

  it("prints each command's help as the CLI renders it, from help.json when only a pipe reads it, and only when that file is the script's own", async () => {
    const kept = JSON.parse(readFileSync(join(BIN, 'help.json'), 'utf8')) as { cli: string; size: number; texts: Record<string, string> };
    // The program, every command it lists and every subcommand (docs/cli.md).
    expect(Object.keys(kept.texts)).toEqual(['', 'compare', 'init', 'mcp', 'merge', 'resume', 'run', 'spans', 'spans query', 'test-run', 'validate']);
    expect(kept.size).toBe(readFileSync(SCRIPT).length);
    // Rendered for a pipe, at 80 columns: examples wrap too (a shell's \ continuation).
    const wide = Object.entries(kept.texts).flatMap(([words, text]) => text.split('\n').flatMap((line) => (line.length > 80 ? [`${words}: ${line}`] : [])));
    expect(wide).toEqual([]);
    // Each help the launcher prints from help.json is the one the CLI renders: main() in this
    // process renders it from the sources (no process of its own: the launcher's are the point).
    // A copy keeps its code cache beside it (by default: this checkout's folder, where it stayed).
    const run = (bin: string, args: string[]) =>
      execa('node', [join(bin, 'agentcheck.js'), ...args], {
        reject: false,
        cwd: ROOT,
        env: { CI: 'true', ...(bin === BIN ? {} : { [CACHE_DIR_ENV]: join(bin, 'cache') }) },
      });
    const argsOf = (words: string) => (words ? [...words.split(' '), words === 'run' ? '-h' : '--help'] : ['--help']);
    // Each help in a process of its own, as a user asks for it.
    const helps = Object.keys(kept.texts);
    const fasts = await Promise.all(helps.map((words) => run(BIN, argsOf(words))));
    const launched: Record<string, string> = {};
    for (const [i, fast] of fasts.entries()) {
      expect([fast.exitCode, fast.stderr]).toEqual([0, '']);
      launched[helps[i]!] = fast.stdout;
    }
    await Promise.all(
      Object.entries(kept.texts).map(async ([words, text]) => {
        const rendered = await runMain(argsOf(words));
        expect([rendered.exitCode, rendered.stderr]).toEqual([0, '']);
        expect(launched[words]).toBe(rendered.stdout);
        expect(`${launched[words]}\n`).toBe(text);
      }),
    );
    // A copy of the launcher and the script without help.json renders help in the CLI.
    const bare = tempDir();
    for (const file of ['agentcheck.js', 'cli.cjs', 'package.json']) copyFileSync(join(BIN, file), join(bare, file));
    // Its code cache starts with the checkout's entry: its first start is not the point.
    seedCliCodeCache(join(bare, 'cache', 'code'), ['other'], join(bare, 'cli.cjs'));
    expect((await run(bare, ['run', '-h'])).stdout).toBe(kept.texts.run.trimEnd());
    // The launcher does print the file's text (an edited one shows it), but never one kept for
    // another script, nor for another way of asking. The same copy, given a help.json (each copy
    // has code cache entries of its own: a second copy would compile the script again). A file
    // kept for another script is ignored whichever help is asked: the size check is asked for a
    // subcommand's help (which the script also renders as help.json has it), the hash for run's.
    const edited = bare;
    const withTexts = (change: object) =>
      writeFileSync(
        join(edited, 'help.json'),
        JSON.stringify({ ...kept, texts: { ...kept.texts, run: 'kept run help\n', 'spans query': 'kept spans query help\n' }, ...change }),
      );
    withTexts({});
    expect((await run(edited, ['run', '--help'])).stdout).toBe('kept run help');
    expect((await run(edited, ['run', '--quiet', '--help'])).stdout).toBe(kept.texts.run.trimEnd());
    for (const [stale, args] of [
      [{ size: kept.size + 1 }, ['spans', 'query', '--help']],
      [{ cli: 'another' }, ['run', '--help']],
    ] as const) {
      withTexts(stale);
      expect((await run(edited, [...args])).stdout).toBe(kept.texts[args.slice(0, -1).join(' ')]!.trimEnd());
    }
  }, 60_000);

  it.skipIf(!existsSync('/dev/full'))(
    'says a failed write to stdout in one line and exits 1, from help.json or the CLI (no stack trace)',
    async () => {
      const suite = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
      // Help and the version, and commands whose last words go to stdout as they end (a failure
      // Node's stdout reports only after the process would have exited).
      for (const args of [
        ['--help'],
        ['run', '--help'],
        ['help', 'run'],
        ['--version'],
        ['validate', 'a.scenario.yaml'],
        ['run', '.', '--reporter', 'json', '--out', 'out'],
      ]) {
        // The process's own stdout is /dev/full (execa's `file` option writes it from the parent).
        const result = await execa('bash', ['-c', 'exec node "$@" > /dev/full', 'bash', join(BIN, 'agentcheck.js'), ...args], {
          reject: false,
          cwd: suite,
          env: { CI: 'true' },
        });
        expect([result.exitCode, result.stderr], args.join(' ')).toEqual([
          1,
          'agentcheck: could not write to stdout: ENOSPC: no space left on device, write; exit 1',
        ]);
      }
    },
    60_000,
  );

  it.skipIf(!existsSync('/dev/full'))(
    'keeps a command that wrote nothing to stdout quiet about it, and names the exit code the process exits with (black-box nit)',
    async () => {
      const suite = tempDir({});
      const toFull = (args: string[]) =>
        execa('bash', ['-c', 'exec node "$@" > /dev/full', 'bash', ...args], { reject: false, cwd: suite, env: { CI: 'true' } });
      // Invalid input says so on stderr and nothing on stdout: no write failed, its own 2 stands.
      const invalid = await toFull([join(BIN, 'agentcheck.js'), 'run', 'nope']);
      expect(invalid.exitCode).toBe(2);
      expect(invalid.stderr).toMatch(/^agentcheck: invalid input: nope: path not found: [^\n]*$/);
      // A failed write, then the command's own 2 set after it: the line says the 2 it exits with.
      const module = pathToFileURL(join(ROOT, 'dist/src/config/stdio-errors.js')).href;
      const script = `import { watchStdioErrors } from ${JSON.stringify(module)};
watchStdioErrors();
process.stdout.on('error', () => setImmediate(() => { process.exitCode = 2; }));
process.stdout.write('report\\n');`;
      const own = await toFull(['--input-type=module', '-e', script]);
      expect([own.exitCode, own.stderr]).toEqual([2, 'agentcheck: could not write to stdout: ENOSPC: no space left on device, write; exit 2']);
    },
    60_000,
  );

  it('fails every command alike when stdout refuses its output (EBADF), and takes a stdout closed before the start as /dev/null (docs/cli.md)', async () => {
    const script = '- tool_calls: [{name: lookup, args: {id: "1"}}]\n- tool_calls: [{name: finish, args: {}}]\n- text: done\n';
    const suite = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 's.yaml': script, 'read-only.txt': 'x\n' });
    const commands = [
      ['validate', 'a.scenario.yaml'],
      ['run', '.', '--reporter', 'json', '--out', 'out'],
      ['test-run', '--agent', 'agent.yaml', '--message', 'go', '--script', 's.yaml', '--terminal-tool', 'finish', '--json'],
    ];
    const withStdout = (redirect: string, args: string[]) =>
      execa('bash', ['-c', `exec node "$@" ${redirect}`, 'bash', join(BIN, 'agentcheck.js'), ...args], { reject: false, cwd: suite, env: { CI: 'true' } });
    for (const args of commands) {
      // Opened for reading only, stdout refuses every write: said in one line, exit 1.
      const refused = await withStdout('1< read-only.txt', args);
      expect([refused.exitCode, refused.stderr], args.join(' ')).toEqual([
        1,
        'agentcheck: could not write to stdout: EBADF: bad file descriptor, write; exit 1',
      ]);
      // Closed, it is /dev/null by the time agentcheck runs (Node opens it there), as stdio: 'ignore'
      // gives: this run is also the one that shows each command passes with its output written
      // somewhere (a run with `> /dev/null` would start in the very same state).
      const closed = await withStdout('>&-', args);
      expect([closed.exitCode, closed.stderr], args.join(' ')).toEqual([0, '']);
    }
    // The run's report is written all the same.
    expect(existsSync(join(suite, 'out', 'report.json'))).toBe(true);
  }, 60_000);

  it('checks tool argument formats with ajv-formats, loaded only then: never for --help, and also from cached validators', async () => {
    const loadsFormats = (stderr: string) => /node_modules\/ajv-formats\//.test(stderr);
    const help = await runCli(['--help'], ROOT, { NODE_DEBUG: 'module' });
    expect(help.exitCode).toBe(0);
    expect(loadsFormats(help.stderr)).toBe(false);
    const dir = tempDir({
      'fm.yaml':
        'id: fm\nagent:\n  name: x\n  tools:\n    - {name: t, description: t, parameters: {type: object, properties: {e: {type: string, format: email}}}, returns: 1}\n',
      's.yaml': '- tool_calls: [{name: t, args: {e: not-an-email}}]\n- text: ok\n',
    });
    // Not about the CLI's first start: its own entry is there, the validators' are not.
    seedCliCodeCache(join(dir, 'cache', 'code'), ['test-run']);
    const testRun = () =>
      runCli(['test-run', '--agent', 'fm.yaml', '--message', 'hi', '--script', 's.yaml', '--terminal-tool', 't', '--json'], dir, {
        AGENTCHECK_CACHE_DIR: join(dir, 'cache'),
        NODE_DEBUG: 'module',
      });
    const reason = 'tool t failed: invalid_arguments (Invalid arguments for t: e: expected format "email", got string "not-an-email".)';
    const loadsAjv = (stderr: string) => /node_modules\/ajv\/dist\/ajv\.js/.test(stderr);
    const [compiled, cached] = [await testRun(), await testRun()];
    for (const run of [compiled, cached]) {
      expect(JSON.parse(run.stdout)).toMatchObject({ verdict: 'failed', verdict_reason: reason });
      expect(loadsFormats(run.stderr)).toBe(true);
    }
    // The second run's validator is the cached code, which needs the formats but not Ajv.
    expect([loadsAjv(compiled.stderr), loadsAjv(cached.stderr)]).toEqual([true, false]);
  }, 60_000);
});
