// @ts-check
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Re-records a suite's cassettes against a simulator already listening (its URL is part of every
 * recorded request): deletes the old cassettes (so renamed scenarios leave no stale folders) and
 * runs the suite's config with --cassettes record --concurrency 1 (one run at a time, so a
 * re-recording writes the same files). Resolves to the run's exit code (2 when it could not run).
 * @param {{ suite: string, out: string, env?: NodeJS.ProcessEnv }} options `suite` and `out` relative to the repository root
 * @returns {Promise<number>}
 */
export function recordSuiteCassettes({ suite, out, env = process.env }) {
  const root = join(import.meta.dirname, '..', '..');
  rmSync(join(root, suite, 'cassettes'), { recursive: true, force: true });
  // spawn, not spawnSync: the simulator answers from this process's event loop.
  const run = spawn(
    process.execPath,
    [
      join(root, 'dist', 'bin', 'agentcheck.js'),
      'run',
      '--config',
      join(root, suite, 'agentcheck.config.yaml'),
      '--cassettes',
      'record',
      '--concurrency',
      '1',
      '--reporter',
      'table',
      '--out',
      join(root, out),
    ],
    { cwd: root, stdio: 'inherit', env },
  );
  return new Promise((done) => run.on('close', (code) => done(code ?? 2)));
}
