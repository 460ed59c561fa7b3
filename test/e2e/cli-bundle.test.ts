import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli.js';

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
});
