import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../../../config/errors.js';
import type { Workspace } from '../../workspace/workspace.js';
import { specialFileKind } from '../../../config/special-file.js';
import { fileError, readUnlessGone } from './file-error.js';
import { specialFileError } from './regular-file.js';
import { compareCodeUnits } from '../../../config/code-unit-order.js';

/** Folders never descended into: version-control internals are noise for an agent. */
const SKIPPED_DIRS = new Set(['.git']);
/** A walk that meets more entries than this stops with an error asking for a narrower path. */
const MAX_ENTRIES = 100_000;

/** A file found by listFiles: its workspace-relative path ('/' separators) and its real path. */
export interface FoundFile {
  relative: string;
  absolute: string;
}

/** The normalized workspace-relative form of a user path ('' for the root, '/' separators). */
export function workspaceRelative(root: string, relativePath: string): string {
  return path.relative(root, path.resolve(root, relativePath)).split(path.sep).join('/');
}

/**
 * Every regular file under `relativePath` (itself, when it names a file), sorted by relative
 * path; a named pipe, socket or device given as `relativePath` is refused (NOT_A_FILE), and so is
 * a folder under it that cannot be read (FS_EACCES). Symlinks are not followed, so a walk cannot
 * loop or wander outside the workspace.
 */
export async function listFiles(tool: string, workspace: Workspace, relativePath: string): Promise<FoundFile[]> {
  const root = await workspace.root();
  let start: string;
  try {
    start = await workspace.resolve(relativePath);
  } catch (error) {
    throw fileError(tool, relativePath, error);
  }
  const base = workspaceRelative(root, relativePath);
  let info;
  try {
    info = await stat(start);
  } catch (error) {
    throw fileError(tool, relativePath, error);
  }
  if (info.isFile()) return [{ relative: base, absolute: start }];
  // A named pipe, socket or device is neither: said as read_file says it, not walked as an empty folder.
  const special = specialFileKind(info);
  if (special !== undefined) throw specialFileError(tool, relativePath, special, true);

  const found: FoundFile[] = [];
  const pending: Array<{ dir: string; rel: string }> = [{ dir: start, rel: base }];
  let seen = 0;
  while (pending.length > 0) {
    const { dir, rel } = pending.pop()!;
    // A folder removed since it was listed has no entries; one that cannot be read is an error.
    const entries = (await readUnlessGone(tool, rel === '' ? relativePath : rel, () => readdir(dir, { withFileTypes: true }))) ?? [];
    seen += entries.length;
    if (seen > MAX_ENTRIES) {
      throw new ToolError(tool, `more than ${MAX_ENTRIES} entries under ${relativePath}; give a narrower "path"`, 'TOO_MANY_FILES');
    }
    for (const entry of entries) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const childAbs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) pending.push({ dir: childAbs, rel: childRel });
      } else if (entry.isFile()) {
        found.push({ relative: childRel, absolute: childAbs });
      }
    }
  }
  return found.sort((a, b) => compareCodeUnits(a.relative, b.relative));
}
