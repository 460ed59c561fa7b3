import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../e2e/cli.js';
import { tempDir } from '../../../helpers/temp-dir.js';

// The calls to make, each as [tool, args]; the child prints each outcome as one JSON line.
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['list_dir', { path: 'locked' }],
  ['find_files', { pattern: 'txt' }],
  ['find_files', { pattern: 'txt', path: 'locked' }],
  ['grep', { pattern: 'needle' }],
  ['grep', { pattern: 'needle', path: 'open' }],
  ['grep', { pattern: 'needle', path: 'open/seen.txt' }],
];

/**
 * Runs the built-in file tools (the built package) on `dir` in a child process that cannot read
 * what mode 000 locks: as the user `nobody` when the tests run as root (root reads everything).
 */
async function runToolsUnprivileged(dir: string): Promise<Array<{ ok: unknown } | { tool: string; error: string; code: string }>> {
  const url = (path: string) => pathToFileURL(join(ROOT, 'dist/src', path)).href;
  const script = `
    const { BUILTINS } = await import(${JSON.stringify(url('engine/tools/builtins/index.js'))});
    const { FolderWorkspace } = await import(${JSON.stringify(url('engine/workspace/folder-workspace.js'))});
    const workspace = FolderWorkspace.at(${JSON.stringify(dir)});
    for (const [tool, args] of ${JSON.stringify(CALLS)}) {
      try {
        console.log(JSON.stringify({ ok: await BUILTINS[tool].run(args, { workspace }) }));
      } catch (error) {
        console.log(JSON.stringify({ tool: error.tool, error: error.message, code: error.code }));
      }
    }`;
  const asRoot = process.getuid?.() === 0;
  const result = await execa('node', ['--input-type=module', '-e', script], { cwd: dir, reject: false, ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout.split('\n').map((line) => JSON.parse(line));
}

describe('file tools on what cannot be read', () => {
  it('name an unreadable folder or file (fs_eacces) instead of listing or searching it as empty', async () => {
    const dir = tempDir({ 'open/seen.txt': 'a needle here\n', 'open/secret.txt': 'a needle too\n', 'locked/hidden.txt': 'needle\n' });
    mkdirSync(join(dir, 'open/sub'));
    writeFileSync(join(dir, 'open/sub/also.txt'), 'no match\n');
    // The unprivileged child walks the whole temp folder: readable by all but what is locked.
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'locked'), 0o000);
    chmodSync(join(dir, 'open/secret.txt'), 0o000);
    const [listLocked, findAll, findLocked, grepAll, grepOpen, grepFile] = await runToolsUnprivileged(dir);
    const eacces = (path: string, tool: string) => ({ tool, error: `${path}: permission denied`, code: 'FS_EACCES' });
    expect(listLocked).toEqual(eacces('locked', 'list_dir'));
    // Walks that meet the locked folder say so, whether it is the path given or below it.
    expect(findAll).toEqual(eacces('locked', 'find_files'));
    expect(findLocked).toEqual(eacces('locked', 'find_files'));
    expect(grepAll).toEqual(eacces('locked', 'grep'));
    // A file grep cannot read is named too, never taken as holding no match.
    expect(grepOpen).toEqual(eacces('open/secret.txt', 'grep'));
    // What can be read is searched as before.
    expect(grepFile).toEqual({ ok: [{ path: 'open/seen.txt', line: 1, text: 'a needle here' }] });
  });
});
