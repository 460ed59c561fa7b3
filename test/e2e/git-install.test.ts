import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT } from './cli.js';

// npm clones, installs the devDependencies and compiles: minutes on a loaded machine. A
// generous limit, never a timing assertion.
const SLOW = 1_200_000;
const npmEnv = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
/** What a clone of the repository holds that `npm pack` ships or `prepare` (npm run build) reads. */
const REPO_FILES = ['package.json', 'package-lock.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'src', 'bin', 'scripts', 'docs'];

/**
 * The README's "from git" path, offline. `npm install git+file://REPO` does two things: it
 * fetches the git dependency (clone, `npm install` of agentcheck's own dependencies and
 * devDependencies from its package-lock.json, `prepare` = `npm run build`, pack by `files`), and
 * then it resolves agentcheck's dependency ranges for the consuming project against the registry.
 * The first works offline from a warm npm cache and is what this test runs, through
 * `npm pack --offline git+file://REPO` (the same git fetcher npm install uses). The second needs
 * registry metadata a cache made by `npm ci` lacks, so the installed package borrows this
 * checkout's node_modules, as test/e2e/npm-pack.test.ts does.
 */
// Minutes of npm and tsc work: left out of `npm test` (kept under two minutes) and run by .ci/run
// as its own step with AGENTCHECK_INSTALL_TESTS=1 (CONTRIBUTING.md, Tests).
describe.runIf(process.env.AGENTCHECK_INSTALL_TESTS === '1')('installing from a git URL (AGENTCHECK_INSTALL_TESTS=1)', () => {
  it(
    'clones, builds dist/ with prepare and packs; the built CLI prints help and runs a scenario',
    async (ctx) => {
      const work = tempDir();
      const repo = join(work, 'agentcheck');
      // A repository of the working tree's files (dist/ is not committed: prepare must build it).
      for (const entry of REPO_FILES) cpSync(join(ROOT, entry), join(repo, entry), { recursive: true });
      const git = (...args: string[]) => execa('git', args, { cwd: repo, env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
      await git('init', '-q');
      await git('add', '-A');
      await git('-c', 'user.name=agentcheck test', '-c', 'user.email=test@example.invalid', 'commit', '-q', '-m', 'snapshot');

      const packed = await execa('npm', ['pack', '--offline', '--pack-destination', work, `git+file://${repo}`], { cwd: work, env: npmEnv, reject: false });
      if (packed.exitCode !== 0 && /ENOTCACHED/.test(packed.stderr)) {
        console.warn(
          "[git install test] skipped: the npm cache lacks a package the clone's `npm install` needs (ENOTCACHED); run `npm ci` once online to warm it.",
        );
        ctx.skip();
      }
      expect(packed.exitCode, packed.stderr).toBe(0);
      // stdout also holds what prepare printed; the tarball's name is its last line.
      const tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
      expect(tarball.endsWith('agentcheck-0.1.0.tgz'), packed.stdout).toBe(true);
      const files = (await execa('tar', ['-tzf', tarball])).stdout.split('\n').map((path) => path.replace(/^package\//, ''));
      // Built by prepare in the clone: the sources compiled, the schemas precompiled.
      for (const wanted of ['dist/bin/agentcheck.js', 'dist/src/index.js', 'dist/src/vitest/index.js', 'package.json', 'README.md', 'docs/cli.md'])
        expect(files, wanted).toContain(wanted);
      expect(files.filter((file) => file.startsWith('dist/src/config/format-validators/') && file.endsWith('.cjs')).length).toBeGreaterThan(40);
      expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);

      const project = join(work, 'project');
      const installed = join(project, 'node_modules', 'agentcheck');
      mkdirSync(installed, { recursive: true });
      await execa('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
      symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'), 'dir');
      expect(existsSync(join(installed, 'src'))).toBe(false);
      const cli = (...args: string[]) =>
        execa('node', [join(installed, 'dist/bin/agentcheck.js'), ...args], { cwd: project, reject: false, env: { CI: 'true' } });

      const help = await cli('--help');
      expect(help.exitCode, help.stderr).toBe(0);
      expect(help.stdout).toContain('test-run');
      expect((await cli('init', 'agent-tests')).exitCode).toBe(0);
      const run = await cli('run', 'agent-tests', '--grep', 'damaged order');
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('scenarios/refund.scenario.yaml#a');
      expect(run.stdout).toContain('1 passed, 0 failed, 0 errored');
    },
    SLOW,
  );
});
