import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../src/config/errors.js';
import { BUILTINS } from '../../../../src/engine/tools/builtins/index.js';
import type { ToolContext } from '../../../../src/engine/tools/tool.js';
import { FolderWorkspace } from '../../../../src/engine/workspace/folder-workspace.js';
import { makeToolContext } from '../tool-context.js';

let outside: string;
let workspace: FolderWorkspace;
let root: string;
let ctx: ToolContext;

beforeAll(async () => {
  outside = await realpath(await mkdtemp(path.join(tmpdir(), 'agentcheck-outside-')));
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
});
afterAll(() => rm(outside, { recursive: true, force: true }));

beforeEach(async () => {
  workspace = FolderWorkspace.temp();
  root = await workspace.root();
  ctx = makeToolContext({ workspace });
  await mkdir(path.join(root, 'src', 'lib'), { recursive: true });
  await writeFile(path.join(root, 'README.md'), '# Shop\nTODO: refunds\n');
  await writeFile(path.join(root, 'src', 'main.ts'), 'import x from "./lib/x";\n');
  await writeFile(path.join(root, 'src', 'lib', 'x.ts'), 'export default 1;\n');
  await symlink(outside, path.join(root, 'out'));
});
afterEach(() => workspace.dispose());

async function toolError(promise: Promise<unknown>, code: string): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code).toBe(code);
  return error as ToolError;
}

/** A call of every file tool on `given`, with arguments that would find README.md's text were it read there. */
const everyFileTool = (given: string) =>
  ({
    read_file: { path: given },
    write_file: { path: given, content: 'x' },
    edit_file: { path: given, old: 'Shop', new: 'x' },
    list_dir: { path: given },
    find_files: { pattern: '.', path: given },
    grep: { pattern: 'Shop', path: given },
  }) as const;

describe('built-in table', () => {
  it('has the eight built-ins with strict object schemas and the documented read-only flags', () => {
    expect(Object.keys(BUILTINS).sort()).toEqual(['echo', 'edit_file', 'find_files', 'grep', 'list_dir', 'read_file', 'run_command', 'write_file']);
    const readOnly = Object.entries(BUILTINS)
      .filter(([, tool]) => tool.readOnly)
      .map(([name]) => name)
      .sort();
    expect(readOnly).toEqual(['echo', 'find_files', 'grep', 'list_dir', 'read_file']);
    for (const tool of Object.values(BUILTINS)) {
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(Array.isArray(tool.parameters.required)).toBe(true);
      expect(tool.description.length).toBeGreaterThan(10);
    }
  });
});

describe('read_file', () => {
  it('returns the text', async () => {
    expect(await BUILTINS.read_file.run({ path: 'README.md' }, ctx)).toBe('# Shop\nTODO: refunds\n');
  });

  it('names a missing file by its relative path', async () => {
    const error = await toolError(BUILTINS.read_file.run({ path: 'nope.md' }, ctx), 'FILE_NOT_FOUND');
    expect(error.tool).toBe('read_file');
    expect(error.message).toContain('nope.md');
    expect(error.message).not.toContain(root);
  });

  it('names a symlink loop by the path the model gave, never the temp folder', async () => {
    await symlink('loop-b', path.join(root, 'loop-a'));
    await symlink('loop-a', path.join(root, 'loop-b'));
    for (const given of ['loop-a', 'loop-a/x.md']) {
      const error = await toolError(BUILTINS.read_file.run({ path: given }, ctx), 'SYMLINK_LOOP');
      expect(error.tool).toBe('read_file');
      expect(error.message).toBe(`${given} is a symlink loop (too many levels of symlinks)`);
    }
  });

  it('refuses files over 1 MB, folders, and paths outside the workspace', async () => {
    await writeFile(path.join(root, 'big.txt'), 'x'.repeat(1024 * 1024 + 1));
    expect((await toolError(BUILTINS.read_file.run({ path: 'big.txt' }, ctx), 'FILE_TOO_LARGE')).message).toContain('1 MB');
    await toolError(BUILTINS.read_file.run({ path: 'src' }, ctx), 'IS_A_DIRECTORY');
    await toolError(BUILTINS.read_file.run({ path: '../x' }, ctx), 'SANDBOX_ESCAPE');
    await toolError(BUILTINS.read_file.run({ path: '/etc/passwd' }, ctx), 'SANDBOX_ESCAPE');
    const error = await toolError(BUILTINS.read_file.run({ path: 'out/secret.txt' }, ctx), 'SANDBOX_ESCAPE');
    expect(error.tool).toBe('read_file');
  });

  it('rejects a missing argument', async () => {
    await toolError(BUILTINS.read_file.run({}, ctx), 'INVALID_ARGUMENT');
  });
});

describe('write_file', () => {
  it('writes, creating parent folders, and reports bytes', async () => {
    expect(await BUILTINS.write_file.run({ path: 'notes/day/1.md', content: 'héllo' }, ctx)).toEqual({ ok: true, bytes: 6 });
    expect(await readFile(path.join(root, 'notes', 'day', '1.md'), 'utf8')).toBe('héllo');
  });

  it('refuses to write outside, through `..` or a symlink', async () => {
    await toolError(BUILTINS.write_file.run({ path: '../pwned.txt', content: 'x' }, ctx), 'SANDBOX_ESCAPE');
    await toolError(BUILTINS.write_file.run({ path: 'out/pwned.txt', content: 'x' }, ctx), 'SANDBOX_ESCAPE');
    await toolError(BUILTINS.write_file.run({ path: 'out/new/pwned.txt', content: 'x' }, ctx), 'SANDBOX_ESCAPE');
    await expect(readFile(path.join(outside, 'pwned.txt'))).rejects.toThrow();
  });

  it('fails clearly when the path is a folder, with the code and message read_file and edit_file give (black-box nit)', async () => {
    // Each call starts when it is awaited: one that failed while another was awaited would be an unhandled rejection.
    const runs = {
      read_file: () => BUILTINS.read_file.run({ path: 'src' }, ctx),
      write_file: () => BUILTINS.write_file.run({ path: 'src', content: 'x' }, ctx),
      edit_file: () => BUILTINS.edit_file.run({ path: 'src', old: 'a', new: 'b' }, ctx),
    };
    for (const [tool, run] of Object.entries(runs)) {
      const error = await toolError(run(), 'IS_A_DIRECTORY');
      expect([error.tool, error.message]).toEqual([tool, 'src is a folder; use list_dir to see what it holds']);
    }
  });
  it('says a part of the path is not a folder when a file stands where a folder belongs, at any depth (not "already exists")', async () => {
    await writeFile(path.join(root, 'plain.txt'), 'x');
    for (const given of ['plain.txt/b', 'plain.txt/b/c']) {
      const error = await toolError(BUILTINS.write_file.run({ path: given, content: 'x' }, ctx), 'FS_ENOTDIR');
      expect(error.message).toBe(`${given}: a part of the path is not a folder`);
    }
    expect(await readFile(path.join(root, 'plain.txt'), 'utf8')).toBe('x');
  });
});

describe('edit_file', () => {
  it('replaces every occurrence literally and counts them', async () => {
    await writeFile(path.join(root, 'e.txt'), 'a $1 a $1 b');
    expect(await BUILTINS.edit_file.run({ path: 'e.txt', old: '$1', new: '$&!' }, ctx)).toEqual({ ok: true, replacements: 2 });
    expect(await readFile(path.join(root, 'e.txt'), 'utf8')).toBe('a $&! a $&! b');
  });

  it('errors when old is not found or empty', async () => {
    const error = await toolError(BUILTINS.edit_file.run({ path: 'README.md', old: 'absent', new: 'x' }, ctx), 'EDIT_NOT_FOUND');
    expect(error.message).toContain('README.md');
    await toolError(BUILTINS.edit_file.run({ path: 'README.md', old: '', new: 'x' }, ctx), 'INVALID_ARGUMENT');
    await toolError(BUILTINS.edit_file.run({ path: 'out/secret.txt', old: 'secret', new: 'x' }, ctx), 'SANDBOX_ESCAPE');
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });
});

describe('special files and empty paths', () => {
  it('refuses a named pipe in read_file, write_file and edit_file instead of blocking on its open', async () => {
    await execa('mkfifo', [path.join(root, 'pipe')]);
    for (const [tool, args] of [
      ['read_file', { path: 'pipe' }],
      ['write_file', { path: 'pipe', content: 'x' }],
      ['edit_file', { path: 'pipe', old: 'a', new: 'b' }],
    ] as const) {
      const error = await toolError(BUILTINS[tool].run(args, ctx), 'NOT_A_FILE');
      expect(error.message).toBe(`pipe is a named pipe (FIFO), not a regular file; ${tool} works on regular files only`);
    }
    // list_dir says what it is, not to read it with read_file, which refuses it.
    const listed = await toolError(BUILTINS.list_dir.run({ path: 'pipe' }, ctx), 'NOT_A_DIRECTORY');
    expect(listed.message).toBe('pipe is a named pipe (FIFO), not a folder');
  });

  it('refuses a named pipe given as the path of grep and find_files, as the other file tools do, instead of an empty result (black-box bug)', async () => {
    await execa('mkfifo', [path.join(root, 'pipe')]);
    for (const [tool, args] of [
      ['grep', { pattern: 'x', path: 'pipe' }],
      ['find_files', { pattern: '.', path: 'pipe' }],
    ] as const) {
      const error = await toolError(BUILTINS[tool].run(args, ctx), 'NOT_A_FILE');
      expect([error.tool, error.message]).toEqual([
        tool,
        `pipe is a named pipe (FIFO), not a folder or a regular file; ${tool} works on folders and regular files only`,
      ]);
    }
    // A pipe met inside the folder walked is still passed over, as before.
    expect(await BUILTINS.find_files.run({ pattern: '.' }, ctx)).toEqual(['README.md', 'src/lib/x.ts', 'src/main.ts']);
  });

  it('says a part of the path is not a folder in every file tool, through a file, a link to a file or a named pipe (black-box bug)', async () => {
    await execa('mkfifo', [path.join(root, 'pipe')]);
    await symlink('README.md', path.join(root, 'readme-link'));
    for (const given of ['README.md/x', 'README.md/x/y', 'readme-link/x', 'pipe/x']) {
      for (const [tool, args] of Object.entries(everyFileTool(given))) {
        const error = await toolError(BUILTINS[tool as keyof typeof BUILTINS].run(args, ctx), 'FS_ENOTDIR');
        expect([error.tool, error.message]).toEqual([tool, `${given}: a part of the path is not a folder`]);
      }
    }
    // A name that is simply not there stays not found, under a missing folder too.
    for (const given of ['nope/x', 'src/nope']) {
      for (const [tool, args] of Object.entries(everyFileTool(given))) {
        if (tool === 'write_file') continue;
        await toolError(BUILTINS[tool as keyof typeof BUILTINS].run(args, ctx), 'FILE_NOT_FOUND');
      }
    }
    expect(await readFile(path.join(root, 'README.md'), 'utf8')).toBe('# Shop\nTODO: refunds\n');
  });

  it('says a part of the path is not a folder in every file tool for a file named with a trailing slash, never reading or overwriting it (black-box nit)', async () => {
    await execa('mkfifo', [path.join(root, 'pipe')]);
    await symlink('README.md', path.join(root, 'readme-link'));
    for (const given of ['README.md/', 'README.md//', 'README.md/.', 'readme-link/', 'pipe/', 'src/main.ts/']) {
      for (const [tool, args] of Object.entries(everyFileTool(given))) {
        const error = await toolError(BUILTINS[tool as keyof typeof BUILTINS].run(args, ctx), 'FS_ENOTDIR');
        expect([error.tool, error.message]).toEqual([tool, `${given}: a part of the path is not a folder`]);
      }
    }
    expect(await readFile(path.join(root, 'README.md'), 'utf8')).toBe('# Shop\nTODO: refunds\n');
    // A folder with a trailing slash is still a folder: listed, walked, and refused by the file tools as one.
    expect(await BUILTINS.list_dir.run({ path: 'src/' }, ctx)).toEqual(['lib/', 'main.ts']);
    expect(await BUILTINS.find_files.run({ pattern: '\\.ts$', path: 'src/lib/' }, ctx)).toEqual(['src/lib/x.ts']);
    const folder = await toolError(BUILTINS.read_file.run({ path: 'src/' }, ctx), 'IS_A_DIRECTORY');
    expect(folder.message).toBe('src/ is a folder; use list_dir to see what it holds');
    await toolError(BUILTINS.write_file.run({ path: 'src/', content: 'x' }, ctx), 'IS_A_DIRECTORY');
    // A new name with a trailing slash names a folder: write_file makes no file by that name.
    const made = await toolError(BUILTINS.write_file.run({ path: 'new/', content: 'x' }, ctx), 'INVALID_PATH');
    expect([made.tool, made.message]).toEqual([
      'write_file',
      'new/ ends in "/", which names a folder: expected the path of a file, relative to the workspace root',
    ]);
    expect((await toolError(BUILTINS.write_file.run({ path: 'new/.', content: 'x' }, ctx), 'INVALID_PATH')).message).toBe(
      'new/. ends in "/.", which names a folder: expected the path of a file, relative to the workspace root',
    );
    expect(await BUILTINS.list_dir.run({}, ctx)).toEqual(['README.md', 'out', 'pipe', 'readme-link', 'src/']);
    await toolError(BUILTINS.read_file.run({ path: 'new/' }, ctx), 'FILE_NOT_FOUND');
  });

  it('says a path is empty rather than "is a directory"', async () => {
    for (const tool of ['read_file', 'write_file'] as const) {
      const error = await toolError(BUILTINS[tool].run({ path: '', content: 'x' }, ctx), 'INVALID_PATH');
      expect(error.message).toContain('path is empty: expected the path of a file, relative to the workspace root');
    }
  });
});

describe('list_dir', () => {
  it('lists sorted names with folders marked, defaulting to the root', async () => {
    expect(await BUILTINS.list_dir.run({}, ctx)).toEqual(['README.md', 'out', 'src/']);
    // A symlink to a folder inside the workspace is a folder; `out` leads outside and stays a name.
    await symlink(path.join(root, 'src', 'lib'), path.join(root, 'lib-link'));
    expect(await BUILTINS.list_dir.run({}, ctx)).toEqual(['README.md', 'lib-link/', 'out', 'src/']);
    expect(await BUILTINS.list_dir.run({ path: 'src' }, ctx)).toEqual(['lib/', 'main.ts']);
  });

  it('errors for a file, a missing folder and an escape', async () => {
    await toolError(BUILTINS.list_dir.run({ path: 'README.md' }, ctx), 'NOT_A_DIRECTORY');
    await toolError(BUILTINS.list_dir.run({ path: 'missing' }, ctx), 'FILE_NOT_FOUND');
    await toolError(BUILTINS.list_dir.run({ path: 'out' }, ctx), 'SANDBOX_ESCAPE');
  });
});

describe('find_files', () => {
  it('matches the regex against workspace-relative paths and sorts them', async () => {
    expect(await BUILTINS.find_files.run({ pattern: '\\.ts$' }, ctx)).toEqual(['src/lib/x.ts', 'src/main.ts']);
    expect(await BUILTINS.find_files.run({ pattern: '^src/lib/', path: 'src' }, ctx)).toEqual(['src/lib/x.ts']);
    // Under a narrower path the pattern still sees the workspace-relative path it returns, not one relative to `path`.
    expect(await BUILTINS.find_files.run({ pattern: '^lib/', path: 'src' }, ctx)).toEqual([]);
    expect(await BUILTINS.find_files.run({ pattern: '.*', limit: 2 }, ctx)).toEqual(['README.md', 'src/lib/x.ts']);
  });

  it('does not follow symlinks and skips .git', async () => {
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'HEAD'), 'ref');
    expect(await BUILTINS.find_files.run({ pattern: 'secret|HEAD' }, ctx)).toEqual([]);
  });

  it('errors on an invalid regex and an escaping path', async () => {
    await toolError(BUILTINS.find_files.run({ pattern: '(' }, ctx), 'INVALID_PATTERN');
    await toolError(BUILTINS.find_files.run({ pattern: '.', path: '..' }, ctx), 'SANDBOX_ESCAPE');
    await toolError(BUILTINS.find_files.run({ pattern: '.', limit: 0 }, ctx), 'INVALID_ARGUMENT');
  });
});

describe('grep', () => {
  it('returns matching lines, 1-based, in path order', async () => {
    await writeFile(path.join(root, 'src', 'lib', 'x.ts'), 'one\r\nTODO two\nthree TODO\n');
    expect(await BUILTINS.grep.run({ pattern: 'TODO' }, ctx)).toEqual([
      { path: 'README.md', line: 2, text: 'TODO: refunds' },
      { path: 'src/lib/x.ts', line: 2, text: 'TODO two' },
      { path: 'src/lib/x.ts', line: 3, text: 'three TODO' },
    ]);
    expect(await BUILTINS.grep.run({ pattern: 'TODO', path: 'src', limit: 1 }, ctx)).toEqual([{ path: 'src/lib/x.ts', line: 2, text: 'TODO two' }]);
    expect(await BUILTINS.grep.run({ pattern: '^#', path: 'README.md' }, ctx)).toEqual([{ path: 'README.md', line: 1, text: '# Shop' }]);
  });

  it('skips binary files and files over 1 MB', async () => {
    await writeFile(path.join(root, 'bin.dat'), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01]));
    await writeFile(path.join(root, 'huge.txt'), `TODO\n${'x'.repeat(1024 * 1024)}`);
    expect(await BUILTINS.grep.run({ pattern: 'TODO' }, ctx)).toEqual([{ path: 'README.md', line: 2, text: 'TODO: refunds' }]);
  });

  it('errors on an invalid regex and an escaping path', async () => {
    await toolError(BUILTINS.grep.run({ pattern: '[' }, ctx), 'INVALID_PATTERN');
    await toolError(BUILTINS.grep.run({ pattern: 'x', path: '/etc' }, ctx), 'SANDBOX_ESCAPE');
  });
});

describe('echo', () => {
  it('returns the text', async () => {
    expect(await BUILTINS.echo.run({ text: 'hi {{ x }}' }, ctx)).toBe('hi {{ x }}');
    await toolError(BUILTINS.echo.run({ text: 3 }, ctx), 'INVALID_ARGUMENT');
  });
});
