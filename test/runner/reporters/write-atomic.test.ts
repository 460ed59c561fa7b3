import { chmod, lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeChunksAtomic, writeFileAtomic } from '../../../src/runner/report/write-atomic.js';
import { tempOut } from './fixture-report.js';

describe('writeFileAtomic', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  it('creates missing folders and leaves no temp file behind', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const target = join(out.dir, 'a', 'b', 'report.json');
    await writeFileAtomic(target, 'hello');
    expect(await readFile(target, 'utf8')).toBe('hello');
    expect(await readdir(join(out.dir, 'a', 'b'))).toEqual(['report.json']);
  });

  it('never exposes a partial file to a concurrent reader', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const target = join(out.dir, 'report.json');
    const before = 'old '.repeat(1000);
    const after = 'new '.repeat(8_000_000); // 32 MB: many write chunks, so reads interleave
    await writeFile(target, before);
    let done = false;
    const writing = writeFileAtomic(target, after).finally(() => {
      done = true;
    });
    const seen = new Set<string>();
    while (!done) {
      const text = await readFile(target, 'utf8');
      expect(text === before || text === after).toBe(true);
      seen.add(text === before ? 'old' : 'new');
    }
    await writing;
    expect(seen.has('old')).toBe(true); // the reader really ran during the write
    expect(await readFile(target, 'utf8')).toBe(after);
    expect(await readdir(out.dir)).toEqual(['report.json']);
  });
});

/** The permission bits of the file at `path`. */
async function modeOf(path: string): Promise<number> {
  return (await lstat(path)).mode & 0o777;
}

describe("writeFileAtomic and writeChunksAtomic keep the replaced file's mode", () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  it('a report.json made 0600 (or 0640) stays so after it is replaced, whole', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const writers = { text: (path: string) => writeFileAtomic(path, 'new'), chunks: (path: string) => writeChunksAtomic(path, ['n', 'e', 'w']) };
    for (const [name, write] of Object.entries(writers)) {
      for (const mode of [0o600, 0o640]) {
        const target = join(out.dir, `${name}-${mode.toString(8)}.json`);
        await writeFile(target, 'old');
        await chmod(target, mode);
        await write(target);
        expect(await readFile(target, 'utf8')).toBe('new');
        expect(await modeOf(target)).toBe(mode);
      }
    }
    expect((await readdir(out.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a file that was not there gets the mode a new file gets; a mode asked for is never widened to the replaced one', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    await writeFile(join(out.dir, 'fresh'), '');
    await writeFileAtomic(join(out.dir, 'report.json'), 'new');
    expect(await modeOf(join(out.dir, 'report.json'))).toBe(await modeOf(join(out.dir, 'fresh')));
    // A checkpoint is written owner-only (it holds secrets' markers), whatever the file before allowed.
    const checkpoint = join(out.dir, 'run.checkpoint.json');
    await writeFile(checkpoint, 'old');
    await chmod(checkpoint, 0o644);
    await writeFileAtomic(checkpoint, 'new', { mode: 0o600 });
    expect(await modeOf(checkpoint)).toBe(0o600);
  });
});
