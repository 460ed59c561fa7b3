import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../../src/runner/report/write-atomic.js';
import { tempOut } from './fixture-report.js';

// The rename is where the new file becomes visible; making it fail stands in for a process
// killed after writing the temp file and before renaming it.
// A chmod that fails stands in for a file system that refuses to set the replaced file's mode.
const control = vi.hoisted(() => ({ failRename: false, failChmod: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      if (control.failRename) throw Object.assign(new Error('simulated kill before rename'), { code: 'EINTR' });
      return real.rename(from, to);
    },
    chmod: async (path: string, mode: number) => {
      if (control.failChmod) throw Object.assign(new Error('EPERM: operation not permitted, chmod'), { code: 'EPERM' });
      return real.chmod(path, mode);
    },
  };
});

describe('writeFileAtomic when the rename never happens', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => {
    control.failRename = false;
    control.failChmod = false;
    return cleanup();
  });

  it('leaves the previous file intact and removes its temp file', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const target = join(out.dir, 'junit.xml');
    await writeFile(target, '<old/>');
    control.failRename = true;
    await expect(writeFileAtomic(target, '<new>'.repeat(100_000))).rejects.toThrow('simulated kill before rename');
    expect(await readFile(target, 'utf8')).toBe('<old/>');
    expect(await readdir(out.dir)).toEqual(['junit.xml']);
  });

  it('keeps the previous file when the new one cannot take its mode, rather than leave it more readable than the user made it', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const target = join(out.dir, 'report.json');
    await writeFile(target, 'old');
    await chmod(target, 0o600);
    control.failChmod = true;
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow(
      `could not give the new ${target} the mode 0600 of the file it replaces: EPERM: operation not permitted, chmod`,
    );
    expect(await readFile(target, 'utf8')).toBe('old');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readdir(out.dir)).toEqual(['report.json']);
  });
});
