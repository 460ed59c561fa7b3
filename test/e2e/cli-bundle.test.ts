import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';

// The CLI ships as an esbuild bundle (scripts/bundle-cli.mjs; docs/architecture.md, Build).
const BIN = join(ROOT, 'dist/bin');

describe('the CLI bundle', () => {
  it('loads every chunk, including those no test command reaches (a dependency that needs a file or require() fails here)', async () => {
    const chunks = readdirSync(BIN).filter((file) => file.endsWith('.js') && file !== 'agentcheck.js');
    expect(chunks.length).toBeGreaterThan(10);
    // The entry runs the CLI when imported; the chunks only define things.
    const script = `for (const url of ${JSON.stringify(chunks.map((file) => pathToFileURL(join(BIN, file)).href))}) await import(url); console.log('loaded');`;
    const run = await execa('node', ['--input-type=module', '-e', script], { reject: false, cwd: ROOT });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('loaded');
  }, 60_000);

  it('lists each chunk with its sources, and finds the precompiled validators where the build put them', () => {
    const listed = JSON.parse(readFileSync(join(ROOT, 'dist/cli-chunks.json'), 'utf8')) as Record<string, string[]>;
    const files = readdirSync(BIN).filter((file) => file.endsWith('.js'));
    expect(Object.keys(listed).sort()).toEqual(files.sort());
    expect(listed['agentcheck.js']).toContain('bin/agentcheck.ts');
    const sources = Object.values(listed).flat();
    expect(sources).toContain('src/config/json-schema.ts');
    // json-schema.ts is bundled with the folder it reads the validators from, relative to dist/bin.
    const chunk = Object.keys(listed).find((file) => listed[file].includes('src/config/json-schema.ts'))!;
    const folder = /"(\.\.\/src\/config\/format-validators\/)"/.exec(readFileSync(join(BIN, chunk), 'utf8'))?.[1];
    expect(folder).toBe('../src/config/format-validators/');
    expect(readdirSync(join(BIN, folder!)).filter((file) => file.endsWith('.cjs')).length).toBeGreaterThan(40);
    expect(existsSync(join(BIN, 'agentcheck.d.ts'))).toBe(false);
  });

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
