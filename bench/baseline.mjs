// The code before this round (commit 02ebe4f), built once into node_modules/.cache/agentcheck-bench/,
// so a benchmark can measure it beside the current code on the same machine at the same time: a
// figure measured on another day moves with the machine (span recording gave 62 us on a busy
// machine and 38 us on a quiet one for the same code).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

export const BASELINE_COMMIT = '02ebe4f47c6ff60798d3f4b3e33db53c994bdccb';

/**
 * The folder of the baseline's built checkout (made on first use, about 20 s: git archive, then
 * its own build with this checkout's node_modules); throws with the reason when it cannot be made
 * (no git, or a clone without that commit).
 */
export function baselineRoot() {
  const dir = join(ROOT, 'node_modules/.cache/agentcheck-bench', `baseline-${BASELINE_COMMIT.slice(0, 12)}`);
  if (existsSync(join(dir, 'dist/bin/agentcheck.js'))) return dir;
  const building = `${dir}.${process.pid}.tmp`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    execFileSync('sh', ['-c', `git -C "$1" archive --format=tar "$2" | tar -x -C "$3"`, 'sh', ROOT, BASELINE_COMMIT, building], { stdio: 'pipe' });
    symlinkSync(join(ROOT, 'node_modules'), join(building, 'node_modules'), 'dir');
    execFileSync('npm', ['run', 'build'], { cwd: building, stdio: 'pipe' });
    renameSync(building, dir);
    return dir;
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    const detail = String(error.stderr ?? error.message)
      .trim()
      .split('\n')
      .pop();
    throw new Error(`cannot build the baseline (commit ${BASELINE_COMMIT.slice(0, 7)}): ${detail}`);
  }
}
