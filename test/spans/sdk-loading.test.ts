import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../e2e/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'agentcheck-sdk-loading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Lists the OpenTelemetry packages the process loaded (they are CommonJS, so in require.cache).
const HOOK = `import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
process.on('exit', () => writeFileSync(process.env.LOADED_OUT, JSON.stringify(Object.keys(require.cache))));
`;

/** The @opentelemetry packages a CLI run loaded. */
async function loadedPackages(args: string[]): Promise<string[]> {
  const hook = join(dir, 'hook.mjs');
  const out = join(dir, `loaded-${args[0]}.json`);
  writeFileSync(hook, HOOK);
  await execa('node', ['--import', hook, CLI, ...args], { reject: false, cwd: ROOT, env: { CI: 'true', LOADED_OUT: out } });
  const files = JSON.parse(readFileSync(out, 'utf8')) as string[];
  return [...new Set(files.map((file) => /node_modules\/(@opentelemetry\/[^/]+)\//.exec(file)?.[1]).filter((name): name is string => !!name))].sort();
}

describe('start-up cost of tracing', () => {
  it('a test-run records spans without loading the OpenTelemetry SDK (only the API)', async () => {
    const packages = await loadedPackages([
      'test-run',
      '--agent',
      'fixtures/agents/support-bot.yaml',
      '--message',
      'Refund order 1234',
      '--script',
      'fixtures/test-run/refund-script.yaml',
      '--json',
    ]);
    expect(packages).toEqual(['@opentelemetry/api']);
  }, 60_000);
});
