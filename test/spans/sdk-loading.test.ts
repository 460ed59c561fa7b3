import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../e2e/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'agentcheck-sdk-loading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Records every module URL the process loads: a resolve hook (module.register) appends each to a file.
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.LOADED_OUT, resolved.url + '\\n');
  return resolved;
}
`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`file://${join(dir, 'hooks.mjs')}`)});
`;

/** The @opentelemetry packages a CLI run loaded: from node_modules, or inside the CLI bundle's chunks (dist/cli-chunks.json). */
async function loadedPackages(args: string[]): Promise<string[]> {
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'register.mjs'), REGISTER);
  const out = join(dir, `loaded-${args[0]}.txt`);
  writeFileSync(out, '');
  const run = await execa('node', ['--import', join(dir, 'register.mjs'), CLI, ...args], { reject: false, cwd: ROOT, env: { CI: 'true', LOADED_OUT: out } });
  // The run itself happened and recorded spans (its verdict does not matter here).
  expect(JSON.parse(run.stdout).trace_id, run.stderr).toMatch(/^[0-9a-f]{32}$/);
  const chunks = JSON.parse(readFileSync(join(ROOT, 'dist/cli-chunks.json'), 'utf8')) as Record<string, string[]>;
  const files = readFileSync(out, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url));
  const bundled = files.filter((file) => file.startsWith(join(ROOT, 'dist/bin/'))).flatMap((file) => chunks[basename(file)] ?? []);
  expect(bundled.length).toBeGreaterThan(0);
  return [
    ...new Set([...files, ...bundled].map((file) => /node_modules\/(@opentelemetry\/[^/]+)\//.exec(file)?.[1]).filter((name): name is string => !!name)),
  ].sort();
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
