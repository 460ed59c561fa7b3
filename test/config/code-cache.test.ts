import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codeCacheEntry, runCommonJs } from '../../src/config/code-cache.js';
import { CACHE_DIR_ENV, codeCacheDir, schemaCacheDir, yamlCacheDir } from '../../src/config/cache-folder.js';
import { execa } from 'execa';
import { ROOT, runCli } from '../e2e/cli.js';
import { once } from '../helpers/shared-fixture.js';
import { seedCliCodeCache } from '../helpers/seed-cli-code-cache.js';
import { tempDir } from '../helpers/temp-dir.js';

const require = createRequire(import.meta.url);
const CODE = `const { basename } = require('node:path');\nmodule.exports = { name: basename('/a/b/validator.cjs'), self: typeof exports };\n`;

// A build whose tool schema is wrong: the build's own validator, the JSON Schema meta-schema's and
// a tool schema's with a format all run; the located error must read the same from a cold or a
// warm cache.
const BROKEN_BUILD = `id: cache-bot
agent:
  name: Cache bot
  llm: {provider: scripted, model: m}
  tools:
    - {name: lookup, description: Look up., parameters: {type: object, properties: {id: {type: strin}}}, returns: {ok: true}}
    - {name: finish, description: Finish., parameters: {type: object, properties: {note: {type: string, format: email}}}, returns: {ok: true}}
`;

describe('runCommonJs (generated code run with V8 code cache)', () => {
  it('runs the code with the given require and returns its module.exports', () => {
    expect(runCommonJs(CODE, '/virtual/validator.cjs', require, undefined)).toEqual({ name: 'validator.cjs', self: 'object' });
  });

  it('runs the code as usual when its cache entry is damaged', () => {
    const dir = tempDir();
    writeFileSync(codeCacheEntry(dir, CODE), 'not V8 code cache data');
    expect(runCommonJs(CODE, '/virtual/validator.cjs', require, dir)).toEqual({ name: 'validator.cjs', self: 'object' });
  });

  it('leaves alone a cache folder removed before the process exits: the entry is not kept, the folder not made again', async () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const module = pathToFileURL(join(ROOT, 'dist/src/config/code-cache.js')).href;
    // The entry is written at exit; a test's temp folder is often gone by then.
    const script = `const { runCommonJs } = await import(${JSON.stringify(module)});
const { createRequire } = await import('node:module');
const { rmSync, existsSync } = await import('node:fs');
console.log(JSON.stringify(runCommonJs(${JSON.stringify(CODE)}, '/virtual/validator.cjs', createRequire(import.meta.url), ${JSON.stringify(cache)})));
console.log(existsSync(${JSON.stringify(cache)}));
rmSync(${JSON.stringify(cache)}, { recursive: true });`;
    const run = await execa('node', ['--input-type=module', '-e', script], { reject: false });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')).toEqual(['{"name":"validator.cjs","self":"object"}', 'true']);
    expect(existsSync(cache)).toBe(false);
  });

  it('keys an entry by the code: other code has another entry', () => {
    const dir = tempDir();
    expect(codeCacheEntry(dir, CODE)).toBe(codeCacheEntry(dir, CODE));
    expect(codeCacheEntry(dir, CODE)).not.toBe(codeCacheEntry(dir, `${CODE} `));
    expect(codeCacheEntry(dir, CODE).startsWith(dir)).toBe(true);
  });
});

describe('the code cache of the built CLI', () => {
  const entries = (dir: string) =>
    readdirSync(join(dir, 'code'))
      .filter((name) => name.endsWith('.bin'))
      .sort();

  // One cache folder through the life of validate's entries, shared by the next two tests: a
  // broken build validated three times (a failed process: its CLI entry is partial), the fixed
  // build (which replaces it), the broken one once more, then damaged entries under the broken build.
  const validateHistory = once(async () => {
    // Removed when the test that ran it ends: the tests read only what it returns.
    const dir = tempDir({ 'bad.yaml': BROKEN_BUILD, 'good.yaml': BROKEN_BUILD.replace('type: strin}', 'type: string}') });
    const cache = join(dir, 'cache');
    const validate = (file: string) => runCli(['validate', file], dir, { [CACHE_DIR_ENV]: cache });
    const stamps = (names: string[]) => names.map((name) => statSync(join(cache, 'code', name)).mtimeMs);
    // The CLI's own entry for validate: its first line, and when it was written.
    const cliEntry = () => {
      const name = entries(cache).find((file) => file.startsWith('cli-validate-'))!;
      const content = readFileSync(join(cache, 'code', name));
      return { head: content.subarray(0, content.indexOf(0x0a)).toString('latin1'), mtime: statSync(join(cache, 'code', name)).mtimeMs };
    };
    const first = await validate('bad.yaml');
    const afterFirst = { count: entries(cache).length, cli: cliEntry() };
    // The second run loads finish's schema from the schema cache the first run filled, which
    // adds that code's entry; from then on nothing is compiled, so nothing is written.
    const second = await validate('bad.yaml');
    const written = entries(cache);
    const afterSecond = { stamps: stamps(written), cli: cliEntry() };
    const third = await validate('bad.yaml');
    const afterThird = { entries: entries(cache), stamps: stamps(written), cli: cliEntry() };
    const fixed = await validate('good.yaml');
    const replaced = cliEntry();
    // A failure after the success leaves the whole entry. (A success over a whole entry leaving it,
    // which a good.yaml here showed, is held for validate by the V8 flags test below.)
    const again = await validate('bad.yaml');
    const afterAgain = cliEntry();

    // Then one process over damaged entries of both kinds: the CLI's own and half the validators'
    // damaged inside V8's data, its header whole (V8 checks no checksum of its own, and
    // deserializing such data crashed the process: exit 133 or 139), the other half wholly (no
    // head line). Every entry goes through the same readEntry and V8 check, whichever script it is for.
    const cliName = written.find((name) => name.startsWith('cli-validate-'))!;
    const validators = written.filter((name) => name !== cliName);
    const wholly = validators.filter((_, i) => i % 2 === 0);
    const inside = [cliName, ...validators.filter((_, i) => i % 2 === 1)];
    const damaged: Record<string, Buffer> = {};
    for (const name of wholly) damaged[name] = Buffer.from('damaged');
    for (const name of inside) {
      const data = readFileSync(join(cache, 'code', name));
      for (let i = Math.min(200, data.length - 1); i < data.length; i += 97) data[i] ^= 0xff;
      damaged[name] = data;
    }
    for (const [name, data] of Object.entries(damaged)) writeFileSync(join(cache, 'code', name), data);
    const fourth = await validate('bad.yaml');
    const repaired = written.map((name) => ({ name, same: readFileSync(join(cache, 'code', name)).equals(damaged[name]!) }));
    return { first, afterFirst, second, written, afterSecond, third, afterThird, fixed, replaced, again, afterAgain, wholly, inside, fourth, repaired };
  });

  it('is written once, then used, and a damaged entry is replaced; errors read the same throughout', async () => {
    const { first, afterFirst, second, written, afterSecond, third, afterThird, wholly, inside, fourth, repaired } = await validateHistory();
    expect(first.exitCode).toBe(2);
    // The precompiled meta-schema validator speaks as the sources do (test/config/reduce-schema-errors.test.ts).
    expect(first.stderr).toContain(
      'at agent.tools[0].parameters.properties.id.type: expected one of "array" | "boolean" | "integer" | "null" | "number" | "object" | "string", got string "strin" (did you mean "string"?)',
    );
    expect(afterFirst.count).toBeGreaterThan(0);
    expect(second.stderr).toBe(first.stderr);
    expect(third.exitCode).toBe(2);
    expect(third.stderr).toBe(first.stderr);
    expect(afterThird.entries).toEqual(written);
    expect(afterThird.stamps).toEqual(afterSecond.stamps);
    // Entries damaged wholly or inside V8's data (the CLI's own among them): the same error, and
    // every one written anew.
    expect([inside.length > 1, wholly.length > 0]).toEqual([true, true]);
    expect(fourth.exitCode).toBe(2);
    expect(fourth.stderr).toBe(first.stderr);
    expect(repaired).toEqual(written.map((name) => ({ name, same: false })));
  });

  it('runs an edit of the installed CLI script that keeps its length, not the cached code', async () => {
    // A copy of dist/bin whose script says another version, with the same number of characters.
    const dir = tempDir();
    mkdirSync(join(dir, 'dist', 'bin'), { recursive: true });
    for (const name of ['agentcheck.js', 'cli.cjs', 'package.json']) copyFileSync(join(ROOT, 'dist', 'bin', name), join(dir, 'dist', 'bin', name));
    symlinkSync(join(ROOT, 'dist', 'src'), join(dir, 'dist', 'src'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const version = () =>
      execa('node', [join(dir, 'dist', 'bin', 'agentcheck.js'), '--version'], { reject: false, env: { [CACHE_DIR_ENV]: join(dir, 'cache') } });
    const before = (await version()).stdout.trim();
    expect(before).toMatch(/^\d+\.\d+\.\d+$/);
    expect(entries(join(dir, 'cache')).some((name) => name.startsWith('cli-other-'))).toBe(true);
    const edited = before.replace(/\d$/, (digit) => String((Number(digit) + 1) % 10));
    const script = join(dir, 'dist', 'bin', 'cli.cjs');
    writeFileSync(script, readFileSync(script, 'utf8').replaceAll(`"${before}"`, `"${edited}"`));
    expect((await version()).stdout.trim()).toBe(edited);
  });

  it('is written once by a run that sets V8 flags (its heap growth, the linear regex engine), then used', async () => {
    // A $regex matcher switches on V8's linear-time regex engine partway through the run: entries
    // made under other flags than their script was compiled with would be refused, and rewritten,
    // by every later run.
    const dir = tempDir({
      'agent.yaml': BROKEN_BUILD.replace('type: strin}', 'type: string}'),
      'a.scenario.yaml': `name: a
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: lookup, args: {id: "12"}}]}, {tool_calls: [{name: finish, args: {note: a@b.co}}]}, {text: done}]}
expect:
  terminal_tool: finish
  checks: [{tool_called: {tool: lookup, args: {id: {$regex: "^1[0-9]$"}}}}]
`,
    });
    const run = () => runCli(['run', '.', '--reporter', 'json'], dir, { [CACHE_DIR_ENV]: join(dir, 'cache') });
    const stamps = () => Object.fromEntries(entries(join(dir, 'cache')).map((name) => [name, statSync(join(dir, 'cache', 'code', name)).mtimeMs]));
    const validate = () => runCli(['validate', '.'], dir, { [CACHE_DIR_ENV]: join(dir, 'cache') });
    // The CLI's own validate entry is the checkout's: validate's first start is not the point
    // here, its validators' entries are (the run's first start is: its entry is asserted below).
    seedCliCodeCache(join(dir, 'cache', 'code'), ['validate']);
    const first = await run();
    expect(first.exitCode, first.all).toBe(0);
    // The first run's entries include the CLI's own (one per command) and the validators'.
    expect(Object.keys(stamps()).some((name) => name.startsWith('cli-run-'))).toBe(true);
    // The second run adds the entries of the validators it loads from the schema cache the first
    // filled; validate, whose validators compile under other flags, writes its own once.
    await run();
    expect((await validate()).exitCode).toBe(0);
    const written = stamps();
    expect(Object.keys(written).some((name) => name.startsWith('cli-validate-'))).toBe(true);
    // Switching between commands, whose validators compile under other flags, rewrites nothing:
    // validate then run, and run then validate. A second round would start from the very entries
    // the first found, so it could only repeat it.
    for (const again of [run, validate]) expect((await again()).exitCode).toBe(0);
    expect(stamps()).toEqual(written);
  });

  it('replaces an entry a failed process wrote once a process of that command succeeds, and only then', async () => {
    // A config error stops a command before most of it ran: its entry holds little of the script,
    // and every later start would compile the rest again.
    const { first, afterFirst, second, afterSecond, third, afterThird, fixed, replaced, again, afterAgain } = await validateHistory();
    expect([first.exitCode, second.exitCode, third.exitCode], first.all).toEqual([2, 2, 2]);
    const failed = afterFirst.cli;
    expect(failed.head).toMatch(/ partial$/);
    expect(afterSecond.cli).toEqual(failed);
    expect(afterThird.cli).toEqual(failed);
    expect(fixed.exitCode, fixed.all).toBe(0);
    expect(replaced.head).toBe(failed.head.replace(/ partial$/, ''));
    expect(replaced.mtime).not.toBe(failed.mtime);
    expect(again.exitCode).toBe(2);
    expect(afterAgain).toEqual(replaced);
  });

  it('keeps the whole CLI script in the entry a long process writes, its top level included', async () => {
    // V8 drops the bytecode of functions idle for a few garbage collections, the script's top
    // level first (it runs once); an entry written at exit without it made every later start
    // compile the top level again. --stress-flush-code drops at every collection; one run's custom
    // check collects, as a long run (a suite, the MCP server) does over time, the other's does not.
    const scenario = (module: string) => `name: a
agent: ../agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}
expect:
  terminal_tool: finish
  checks: [{custom: {module: ./${module}}}]
`;
    const dir = tempDir({
      'agent.yaml': BROKEN_BUILD.replace('type: strin}', 'type: string}'),
      'collect.cjs': 'module.exports = () => { for (let i = 0; i < 6; i++) globalThis.gc(); return { status: "pass", reason: "collected" }; };\n',
      'idle.cjs': 'module.exports = () => ({ status: "pass", reason: "idle" });\n',
      'collect/a.scenario.yaml': scenario('../collect.cjs'),
      'idle/a.scenario.yaml': scenario('../idle.cjs'),
    });
    const entrySize = async (suite: string) => {
      const cache = join(dir, `cache-${suite}`);
      const run = await execa(
        'node',
        ['--expose-gc', '--stress-flush-code', join(ROOT, 'dist/bin/agentcheck.js'), 'run', suite, '--reporter', 'json', '--out', `out-${suite}`],
        {
          cwd: dir,
          reject: false,
          env: { CI: 'true', [CACHE_DIR_ENV]: cache },
        },
      );
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      const entry = entries(cache).find((name) => name.startsWith('cli-run-'));
      expect(entry).toBeDefined();
      return statSync(join(cache, 'code', entry!)).size;
    };
    const [collected, idle] = await Promise.all([entrySize('collect'), entrySize('idle')]);
    // The collecting run compiled all the idle one did; with the top level dropped its entry was
    // about half the size.
    expect(collected).toBeGreaterThanOrEqual(idle * 0.95);
  });

  // Every cache folder, the launcher's and the CLI's, comes from cache-folder.ts: each spelling of
  // "off" is checked there, and one process (a cold start, every cache off) checks that nothing
  // of the CLI writes a cache then; ' Off ' needs both the trimming and the case.
  it.each(['off', 'OFF', ' Off '])('turns every cache folder off with AGENTCHECK_CACHE_DIR=%j', (off) => {
    const env = { [CACHE_DIR_ENV]: off };
    expect([codeCacheDir(env), schemaCacheDir(env), yamlCacheDir(env)]).toEqual([undefined, undefined, undefined]);
  });

  it('is not kept with AGENTCHECK_CACHE_DIR=" Off "', async () => {
    const dir = tempDir({ 'bot.yaml': BROKEN_BUILD });
    const result = await runCli(['validate', join(dir, 'bot.yaml')], dir, { [CACHE_DIR_ENV]: ' Off ' });
    expect(result.exitCode).toBe(2);
    expect(readdirSync(dir)).toEqual(['bot.yaml']);
  });
});
