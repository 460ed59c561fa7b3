import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCliCodeCache } from '../helpers/seed-cli-code-cache.js';
import { ROOT } from './cli.js';

// `npm pack` work scales with machine load: generous limits, never a timing assertion.
const SLOW = 180_000;
const npmEnv = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

/**
 * The README's "add agentcheck to an existing project" path, as far as it works without a
 * network: `npm install ./agentcheck-0.1.0.tgz` needs the registry (or a warm cache) for the
 * dependencies, so the test packs the tarball, unpacks it where npm would put it and lends it
 * this checkout's node_modules, then runs the packed CLI.
 */
describe('the npm pack tarball', () => {
  // One `npm pack` for both tests (it costs about 1.5 s of CPU): its --json answer lists the files.
  let work = '';
  let files: string[] = [];
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'agentcheck-test-'));
    const { stdout } = await execa('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env: npmEnv });
    files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((file) => file.path);
  }, SLOW);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it(
    'holds the built CLI, the library and the docs, and no sources or tests',
    async () => {
      for (const wanted of ['dist/bin/agentcheck.js', 'dist/src/index.js', 'dist/src/vitest/index.js', 'package.json', 'README.md', 'docs/cli.md']) {
        expect(files, wanted).toContain(wanted);
      }
      expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
    },
    SLOW,
  );

  it(
    'runs from an installed tarball: init, validate and run a starter suite',
    async () => {
      const project = join(work, 'project');
      const installed = join(project, 'node_modules', 'agentcheck');
      mkdirSync(installed, { recursive: true });
      await execa('tar', ['-xzf', join(work, 'agentcheck-0.1.0.tgz'), '-C', installed, '--strip-components=1']);
      symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'), 'dir');
      // Not a test of first starts (test/config/code-cache.test.ts is): the installed CLI's code
      // cache (in the project's node_modules) starts with this checkout's entries.
      seedCliCodeCache(
        join(project, 'node_modules', '.cache', 'agentcheck', 'code'),
        ['other', 'init', 'validate', 'run'],
        join(installed, 'dist/bin/cli.cjs'),
      );
      const cli = (...args: string[]) =>
        execa('node', [join(installed, 'dist/bin/agentcheck.js'), ...args], { cwd: project, reject: false, env: { CI: 'true' } });

      expect((await cli('--version')).stdout).toBe('0.1.0');
      const init = await cli('init', 'agent-tests');
      expect(init.exitCode, init.stderr).toBe(0);
      const validate = await cli('validate', 'agent-tests');
      expect(validate.exitCode, validate.stderr).toBe(0);
      const run = await cli('run', 'agent-tests');
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('2 scenarios: 2 passed');
    },
    SLOW,
  );
});
