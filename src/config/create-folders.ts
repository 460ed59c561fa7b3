import { lstatSync, mkdirSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Creates `dir` and its missing parents, one level at a time from the nearest existing ancestor
 * down. Every output folder agentcheck is given goes through here instead of Node's
 * `mkdirSync(dir, {recursive: true})`, which on Node 20 loops forever (at 100% CPU) on a path
 * under /proc whose parent exists but refuses new entries. A folder that appears meanwhile is
 * fine; anything else throws an Error that names the folder and keeps the system `code`
 * (`ENOTDIR` when an ancestor is a file, `EEXIST` for a link to a missing target, `ENOENT`, `EACCES`, `EROFS`, ...).
 */
export function createFolders(dir: string): void {
  const missing: string[] = [];
  let current = resolve(dir);
  for (;;) {
    const kind = entryKind(current);
    if (kind === 'folder') break;
    if (kind === 'other') throw folderError('ENOTDIR', `${current} is a file, not a folder`);
    missing.push(current);
    const parent = dirname(current);
    // The root always exists; this only guards against a path that never reaches it.
    if (parent === current) throw folderError('ENOENT', `cannot create the folder ${current}: no existing folder above it`);
    current = parent;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && entryKind(folder) === 'folder') continue;
      // stat() saw nothing there yet mkdir finds an entry: a symbolic link whose target is missing.
      if (code === 'EEXIST' && isLink(folder)) {
        throw folderError('EEXIST', `cannot create the folder ${folder}: it is a symbolic link to ${readlinkSync(folder)}, which does not exist`);
      }
      throw folderError(code ?? 'EIO', `cannot create the folder ${folder}: ${(error as Error).message}`);
    }
  }
}

/** What is at `path`: a folder, something else, or nothing (also when a parent is a file). */
function entryKind(path: string): 'folder' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw folderError(code ?? 'EIO', `cannot create the folder ${path}: ${(error as Error).message}`);
  }
}

/** Whether `path` itself is a symbolic link (not following it). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function folderError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}
