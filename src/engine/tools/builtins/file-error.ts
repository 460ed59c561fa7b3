import { AgentcheckError, ToolError } from '../../../config/errors.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EEXIST: 'already exists',
};

/**
 * A folder where a file tool (read_file, write_file, edit_file) needs a file: one code and
 * message for every such tool, whether it checked first or the file system said EISDIR
 * (error type `is_a_directory`, docs/formats.md).
 */
export function folderNotFileError(tool: string, relativePath: string, cause?: unknown): ToolError {
  return new ToolError(tool, `${relativePath} is a folder; use list_dir to see what it holds`, 'IS_A_DIRECTORY', cause === undefined ? undefined : { cause });
}

/**
 * Turns a file system error into a ToolError naming the tool and the workspace-relative path,
 * so the model sees `read_file: notes.md: no such file or directory`, never an absolute temp path.
 * Workspace refusals (SANDBOX_ESCAPE, ...) keep their code and message but name the tool.
 */
export function fileError(tool: string, relativePath: string, error: unknown): Error {
  if (error instanceof ToolError && error.tool === 'workspace') return new ToolError(tool, error.message, error.code, { cause: error });
  if (error instanceof AgentcheckError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  if (code === 'EISDIR') return folderNotFileError(tool, relativePath, error);
  const reason = REASONS[code] ?? code;
  return new ToolError(tool, `${relativePath}: ${reason}`, code === 'ENOENT' ? 'FILE_NOT_FOUND' : `FS_${code}`, { cause: error });
}

/**
 * `read()` of a path a walk found (grep, find_files): undefined when it was removed since, a tool
 * error naming it when it cannot be read (no permission), never skipped in silence as if it held
 * nothing: a search that left part of the workspace out would tell the model its pattern is nowhere.
 */
export async function readUnlessGone<T>(tool: string, relativePath: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileError(tool, relativePath, error);
  }
}
