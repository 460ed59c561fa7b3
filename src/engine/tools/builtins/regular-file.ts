import { stat } from 'node:fs/promises';
import { ToolError } from '../../../config/errors.js';
import { specialFileKind } from '../../../config/special-file.js';

/** An empty `path` names the workspace root, a folder: a file tool says so instead of `: is a directory`. */
export function requireFilePath(tool: string, relative: string): void {
  if (relative.trim() === '') throw new ToolError(tool, 'path is empty: expected the path of a file, relative to the workspace root', 'INVALID_PATH');
}

/**
 * Refuses a named pipe, socket or device (one the agent made with `mkfifo`, say): opening it
 * blocks until another process opens its other end, which would hold the run past its time
 * limit and keep the process alive (docs/security.md, The workspace sandbox). A missing file is
 * left to the caller (write_file creates it).
 */
export async function refuseSpecialFile(tool: string, relative: string, file: string): Promise<void> {
  let info;
  try {
    info = await stat(file);
  } catch {
    return;
  }
  const kind = specialFileKind(info);
  if (kind !== undefined) throw specialFileError(tool, relative, kind);
}

/**
 * The error of a named pipe, socket or device (`kind`, from specialFileKind) where a tool needs a
 * regular file, or a folder too for a walk (grep, find_files): `not_a_file` in every such tool
 * (docs/formats.md, Tools).
 */
export function specialFileError(tool: string, relative: string, kind: string, folderToo = false): ToolError {
  const expected = folderToo ? 'a folder or a regular file' : 'a regular file';
  const works = folderToo ? 'folders and regular files' : 'regular files';
  return new ToolError(tool, `${relative} is ${kind}, not ${expected}; ${tool} works on ${works} only`, 'NOT_A_FILE');
}
