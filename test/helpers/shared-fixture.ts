import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { tempDir } from './temp-dir.js';

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

/** The lines of a command's output that name `file` (`path/file:line:col ...`): one file's messages in a run over several. */
export function linesAbout(text: string, file: string): string {
  return text
    .split('\n')
    .filter((line) => line.includes(`${file}:`))
    .join('\n');
}
