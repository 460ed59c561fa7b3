import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, ToolError } from '../../../src/config/errors.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

let outside: string;
let fixture: string;
const disposers: FolderWorkspace[] = [];

function track(workspace: FolderWorkspace): FolderWorkspace {
  disposers.push(workspace);
  return workspace;
}

beforeAll(async () => {
  outside = await realpath(await mkdtemp(path.join(tmpdir(), 'agentcheck-outside-')));
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  fixture = await mkdtemp(path.join(tmpdir(), 'agentcheck-fixture-'));
  await mkdir(path.join(fixture, 'sub'));
  await writeFile(path.join(fixture, 'sub', 'a.txt'), 'A');
  await symlink('sub', path.join(fixture, 'inside-link'));
  await symlink(outside, path.join(fixture, 'outside-link'));
  await symlink(path.join(outside, 'secret.txt'), path.join(fixture, 'secret-link'));
  await symlink(path.join(outside, 'not-yet.txt'), path.join(fixture, 'dangling-out'));
});

afterEach(async () => {
  await Promise.all(disposers.splice(0).map((w) => w.dispose()));
});

afterAll(async () => {
  await rm(outside, { recursive: true, force: true });
  await rm(fixture, { recursive: true, force: true });
});

describe('FolderWorkspace lifecycle', () => {
  it('temp() makes a real, empty folder lazily and dispose() removes it', async () => {
    const workspace = FolderWorkspace.temp();
    const root = await workspace.root();
    expect(await workspace.root()).toBe(root);
    expect(root).toBe(await realpath(root));
    expect(root.startsWith(await realpath(tmpdir()))).toBe(true);
    expect((await stat(root)).isDirectory()).toBe(true);
    await workspace.dispose();
    await expect(stat(root)).rejects.toThrow();
  });

  it('copyOf() copies files, keeps symlinks as symlinks, and leaves the source alone', async () => {
    const workspace = track(FolderWorkspace.copyOf(fixture));
    const root = await workspace.root();
    expect(await readFile(path.join(root, 'sub', 'a.txt'), 'utf8')).toBe('A');
    await writeFile(path.join(root, 'sub', 'a.txt'), 'changed');
    expect(await readFile(path.join(fixture, 'sub', 'a.txt'), 'utf8')).toBe('A');
    await workspace.dispose();
    await expect(stat(root)).rejects.toThrow();
    expect((await stat(fixture)).isDirectory()).toBe(true);
  });

  it('copyOf() follows a workspace folder that is itself a symlink and copies the folder', async () => {
    const linkParent = await mkdtemp(path.join(tmpdir(), 'agentcheck-link-'));
    const link = path.join(linkParent, 'workspace');
    await symlink(fixture, link);
    try {
      const workspace = track(FolderWorkspace.copyOf(link));
      const root = await workspace.root();
      expect((await stat(root)).isDirectory()).toBe(true);
      expect(await readFile(path.join(root, 'sub', 'a.txt'), 'utf8')).toBe('A');
      // Links inside stay links: the one pointing outside is still refused.
      await refusal(workspace.resolve('outside-link/secret.txt'));
    } finally {
      await rm(linkParent, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform === 'win32')("a workspace path that is a named pipe or a device is called what it is, in the file tools' words", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'agentcheck-ws-kind-'));
    try {
      const pipe = path.join(dir, 'p');
      execFileSync('mkfifo', [pipe]);
      await expect(FolderWorkspace.copyOf(pipe).root()).rejects.toMatchObject({ message: `workspace must be a folder, but ${pipe} is a named pipe (FIFO)` });
      await expect(FolderWorkspace.at('/dev/null').check()).rejects.toMatchObject({ message: 'workspace must be a folder, but /dev/null is a device' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('copyOf() and at() report a missing folder as WORKSPACE_NOT_FOUND', async () => {
    await expect(FolderWorkspace.copyOf(path.join(fixture, 'nope')).root()).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(FolderWorkspace.at(path.join(fixture, 'nope')).root()).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it('copyOf() and at() given a file say it is a file, not that no folder was found', async () => {
    const file = path.join(fixture, 'sub', 'a.txt');
    const expected = { code: 'WORKSPACE_NOT_FOUND', message: `workspace must be a folder, but ${file} is a file` };
    await expect(FolderWorkspace.copyOf(file).root()).rejects.toMatchObject(expected);
    await expect(FolderWorkspace.at(file).check()).rejects.toMatchObject(expected);
    // A path under a file is not there at all.
    await expect(FolderWorkspace.copyOf(path.join(file, 'x')).root()).rejects.toMatchObject({
      message: `workspace folder not found: ${path.join(file, 'x')}`,
    });
  });

  it('check() refuses a made root that is no longer the folder the run worked in: gone, a symbolic link, a file', async () => {
    const cases: Array<[string, (root: string) => Promise<void>, string]> = [
      ['gone', (root) => rm(root, { recursive: true }), 'is gone since the run worked in it (removed by a cleaner of temporary folders?)'],
      [
        'a link',
        async (root) => {
          await rm(root, { recursive: true });
          await symlink(outside, root);
        },
        `is a symbolic link now (to ${outside}), not the folder the run worked in`,
      ],
      [
        'a file',
        async (root) => {
          await rm(root, { recursive: true });
          await writeFile(root, 'x');
        },
        'is no longer a folder (a file is there now), not the folder the run worked in',
      ],
    ];
    for (const [what, replace, found] of cases) {
      const workspace = FolderWorkspace.copyOf(fixture);
      const root = await workspace.root();
      await expect(workspace.check(), what).resolves.toBeUndefined();
      await replace(root);
      await expect(workspace.check(), what).rejects.toMatchObject({
        code: 'WORKSPACE_NOT_FOUND',
        message: `the run's workspace folder ${root} ${found}: the run cannot go on without the files it left there`,
      });
      // Disposing removes the link or file in its place, never the folder a link names.
      await workspace.dispose();
      await expect(stat(root), what).rejects.toThrow();
    }
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('copyOf() refuses a folder that holds the temporary folder its copy would be made in, saying how to get round it', async () => {
    const saved = process.env.TMPDIR;
    const tmp = path.join(fixture, 'tmp');
    await mkdir(tmp);
    try {
      process.env.TMPDIR = tmp;
      const error = await FolderWorkspace.copyOf(fixture)
        .root()
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'WORKSPACE_COPY_FAILED',
        message: `workspace could not be copied: ${fixture}: it holds the temporary folder ${await realpath(tmp)}, where its copy is made (a folder cannot be copied into itself); give a narrower folder, or set TMPDIR to a folder outside it`,
      });
      // Nothing was made in the temporary folder.
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('at() uses the folder in place and never removes it', async () => {
    const workspace = FolderWorkspace.at(fixture);
    expect(await workspace.root()).toBe(await realpath(fixture));
    await workspace.dispose();
    expect((await stat(fixture)).isDirectory()).toBe(true);
  });
});

describe('FolderWorkspace.resolve', () => {
  it('resolves paths inside the root, including `..` that stays inside', async () => {
    const workspace = track(FolderWorkspace.copyOf(fixture));
    const root = await workspace.root();
    expect(await workspace.resolve('sub/a.txt')).toBe(path.join(root, 'sub', 'a.txt'));
    expect(await workspace.resolve('sub/../sub/a.txt')).toBe(path.join(root, 'sub', 'a.txt'));
    expect(await workspace.resolve('.')).toBe(root);
    expect(await workspace.resolve('new/deeper/file.txt', { forWrite: true })).toBe(path.join(root, 'new', 'deeper', 'file.txt'));
  });

  it('allows a symlink that stays inside', async () => {
    const workspace = track(FolderWorkspace.copyOf(fixture));
    const root = await workspace.root();
    expect(await workspace.resolve('inside-link/a.txt')).toBe(path.join(root, 'sub', 'a.txt'));
    expect(await workspace.resolve('inside-link/new.txt', { forWrite: true })).toBe(path.join(root, 'sub', 'new.txt'));
  });

  it('refuses `..` escapes and absolute paths with SANDBOX_ESCAPE naming the path', async () => {
    const workspace = track(FolderWorkspace.temp());
    for (const bad of ['../x', 'a/../../x', '..', '/etc/passwd']) {
      const error = await refusal(workspace.resolve(bad));
      expect(error.code).toBe('SANDBOX_ESCAPE');
      expect(error.message).toContain(JSON.stringify(bad));
      expect((await refusal(workspace.resolve(bad, { forWrite: true }))).code).toBe('SANDBOX_ESCAPE');
    }
  });

  it('refuses symlinks pointing outside, for reads and for writes', async () => {
    const workspace = track(FolderWorkspace.copyOf(fixture));
    for (const [bad, forWrite] of [
      ['secret-link', false],
      ['secret-link', true],
      ['outside-link/secret.txt', false],
      ['outside-link/new.txt', true],
      ['outside-link/new-dir/new.txt', true],
      ['dangling-out', true],
      ['dangling-out', false],
    ] as const) {
      const error = await refusal(workspace.resolve(bad, { forWrite }));
      expect(error.code, `${bad} forWrite=${forWrite}`).toBe('SANDBOX_ESCAPE');
      expect(error.message).toContain(bad);
    }
  });

  it('reports a missing path for reads as FILE_NOT_FOUND', async () => {
    const workspace = track(FolderWorkspace.temp());
    expect((await refusal(workspace.resolve('missing.txt'))).code).toBe('FILE_NOT_FOUND');
  });

  it('reports a symlink loop', async () => {
    const workspace = track(FolderWorkspace.temp());
    const root = await workspace.root();
    await symlink('loop-b', path.join(root, 'loop-a'));
    await symlink('loop-a', path.join(root, 'loop-b'));
    const loop = await refusal(workspace.resolve('loop-a/x', { forWrite: true }));
    expect(loop).toMatchObject({ code: 'SYMLINK_LOOP', message: 'loop-a/x is a symlink loop (too many levels of symlinks)' });
    expect(loop.message).not.toContain(root);
  });
});

describe('FolderWorkspace given an empty path', () => {
  it('refuses it (an unset variable) instead of copying or working in the current folder', () => {
    expect(() => FolderWorkspace.copyOf('')).toThrow(
      new ConfigError({ file: 'FolderWorkspace.copyOf', path: 'srcDir' }, 'expected a folder path, got an empty string'),
    );
    expect(() => FolderWorkspace.at(' ')).toThrow('FolderWorkspace.at at dir: expected a folder path, got an empty string');
    expect(() => FolderWorkspace.at('')).toThrow(ConfigError);
  });
});
