import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../e2e/cli.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The @opentelemetry packages whose modules a CLI run initialised. The CLI is one bundled script
 * (docs/architecture.md, Build) whose modules each initialise in a function named by the module's
 * path; V8's coverage says which of those functions ran.
 */
async function initialisedPackages(args: string[]): Promise<string[]> {
  const dir = tempDir();
  const coverage = join(dir, 'coverage');
  // Coverage changes V8's flags, so the run gets a code cache of its own.
  const run = await execa('node', [CLI, ...args], {
    reject: false,
    cwd: ROOT,
    env: { CI: 'true', NODE_V8_COVERAGE: coverage, AGENTCHECK_CACHE_DIR: join(dir, 'cache') },
  });
  // The run itself happened and recorded spans (its verdict does not matter here).
  expect(JSON.parse(run.stdout).trace_id, run.stderr).toMatch(/^[0-9a-f]{32}$/);
  type Coverage = { result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[] };
  const scripts = readdirSync(coverage).flatMap((file) => (JSON.parse(readFileSync(join(coverage, file), 'utf8')) as Coverage).result);
  const bundle = scripts.filter((script) => script.url.endsWith('/dist/bin/cli.cjs'));
  expect(bundle).toHaveLength(1);
  const ran = bundle[0].functions.filter((fn) => fn.ranges[0].count > 0).map((fn) => fn.functionName);
  // The bundle's own modules ran too: the test would see any package's.
  expect(ran).toContain('src/engine/invoke.ts');
  return [...new Set(ran.map((name) => /^node_modules\/(@opentelemetry\/[^/]+)\//.exec(name)?.[1]).filter((name): name is string => !!name))].sort();
}

describe('start-up cost of tracing', () => {
  it('a test-run records spans without loading the OpenTelemetry SDK (only the API)', async () => {
    const packages = await initialisedPackages([
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
