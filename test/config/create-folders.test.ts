import { mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFolders } from '../../src/config/create-folders.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The error createFolders throws, or undefined. */
function failureOf(dir: string): NodeJS.ErrnoException | undefined {
  try {
    createFolders(dir);
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  return undefined;
}

describe('createFolders', () => {
  it('creates every missing level under the nearest existing folder, and accepts one that exists', () => {
    const root = tempDir();
    const deep = join(root, 'a', 'b', 'c');
    createFolders(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    createFolders(deep);
    mkdirSync(join(root, 'a', 'other'));
    createFolders(join(root, 'a', 'other', 'x'));
    expect(statSync(join(root, 'a', 'other', 'x')).isDirectory()).toBe(true);
  });

  it('names the file that stands where a folder must be, at any depth', () => {
    const root = tempDir({ afile: 'not a folder' });
    for (const dir of [join(root, 'afile'), join(root, 'afile', 'sub'), join(root, 'afile', 'sub', 'deeper')]) {
      const error = failureOf(dir);
      expect(error?.code).toBe('ENOTDIR');
      expect(error?.message).toBe(`${join(root, 'afile')} is a file, not a folder`);
    }
  });

  it('says a folder that is a link to a missing target is one, at any depth', () => {
    const root = tempDir();
    symlinkSync('nowhere', join(root, 'dang'));
    for (const dir of [join(root, 'dang'), join(root, 'dang', 'sub')]) {
      const error = failureOf(dir);
      expect(error?.code).toBe('EEXIST');
      expect(error?.message).toBe(`cannot create the folder ${join(root, 'dang')}: it is a symbolic link to nowhere, which does not exist`);
    }
  });

  // Where Node's recursive mkdir loops forever (Linux /proc), one level at a time fails at once.
  it.skipIf(process.platform !== 'linux')('fails with the folder it could not create when the file system refuses it', () => {
    const error = failureOf('/proc/nope/x');
    expect(error?.code).toBe('ENOENT');
    expect(error?.message).toMatch(/^cannot create the folder \/proc\/nope: /);
  });
});
