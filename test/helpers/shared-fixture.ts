import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { tempDir, writeFiles } from './temp-dir.js';

/**
 * A temp folder with the given files (path -> text) for several tests: call it in a describe body
 * (or at a file's top level), never in a test, whose end would remove it (tempDir). Removed after
 * the tests of that block.
 */
export function sharedDir(files: Record<string, string> = {}): string {
  const dir = tempDir(files);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * `make`, run once, when a test first asks for it: the tests that share a CLI invocation await the
 * same result, and each still passes alone (`-t`), as it runs the invocation if none did.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** once for each key: `make(key)` runs the first time that key is asked for. */
export function oncePerKey<T>(make: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const made = new Map<string, Promise<T>>();
  return (key) => {
    let result = made.get(key);
    if (!result) made.set(key, (result = make(key)));
    return result;
  };
}

/** Makes a temp folder holding `files` (path -> text) that lasts until the describe block ends. */
export type SharedDir = (files?: Record<string, string>) => string;

/**
 * once, for a value whose making needs folders: the folders `make` gets from its `dir` are
 * removed when the describe block ends (afterAll), not when the test that first read the value
 * ends, as a tempDir's would be. Call it at describe level.
 */
export function shared<T>(make: (dir: SharedDir) => Promise<T>): () => Promise<T> {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const dir: SharedDir = (files = {}) => {
    const made = mkdtempSync(join(tmpdir(), 'agentcheck-test-'));
    dirs.push(made);
    writeFiles(made, files);
    return made;
  };
  return once(() => make(dir));
}

/** The lines of a command's output that name `file` (`path/file:line:col ...`): one file's messages in a run over several. */
export function linesAbout(text: string, file: string): string {
  return text
    .split('\n')
    .filter((line) => line.includes(`${file}:`))
    .join('\n');
}
