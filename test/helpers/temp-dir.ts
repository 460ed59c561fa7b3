import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';

// Folders made outside a running test (a describe body, a beforeAll), removed when the worker
// exits, if it does: vitest may end a forks worker without an exit event, so such a folder is best
// removed by the code that made it. One list and one exit listener per process: in the shared
// project (vitest.config.ts, isolate: false) this module loads once per worker, in the isolated
// one once per file.
const LEFT = Symbol.for('agentcheck.test.tempDirs');
const state = globalThis as typeof globalThis & { [LEFT]?: string[] };
const leftovers = (state[LEFT] ??= (() => {
  const list: string[] = [];
  process.once('exit', () => {
    for (const dir of list) rmSync(dir, { recursive: true, force: true });
  });
  return list;
})());

/**
 * A fresh temp folder with the given files (path -> text), removed when the test that made it
 * finishes. By the test itself, not an afterEach of this module: with isolate: false a module's
 * hooks are registered only in the first test file of the worker that loads it, and every later
 * file's folders stayed in /tmp. A concurrent test passes its context's `onTestFinished`: the
 * global one cannot tell concurrent tests apart, and removed a folder when another test finished,
 * while its own CLI process still ran in it.
 */
export function tempDir(files: Record<string, string> = {}, finished: typeof onTestFinished = onTestFinished): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentcheck-test-'));
  try {
    finished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    leftovers.push(dir);
  }
  writeFiles(dir, files);
  return dir;
}

/** Writes each file (path under `dir` -> text), making its folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
