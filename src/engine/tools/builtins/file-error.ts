import { AgentcheckError, ToolError } from '../../../config/errors.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a folder, not a file (list_dir lists a folder)',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EEXIST: 'already exists',
};

/**
 * Turns a file system error into a ToolError naming the tool and the workspace-relative path,
 * so the model sees `read_file: notes.md: no such file or directory`, never an absolute temp path.
 * Workspace refusals (SANDBOX_ESCAPE, ...) keep their code and message but name the tool.
 */
export function fileError(tool: string, relativePath: string, error: unknown): Error {
  if (error instanceof ToolError && error.tool === 'workspace') return new ToolError(tool, error.message, error.code, { cause: error });
  if (error instanceof AgentcheckError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  const reason = REASONS[code] ?? code;
  return new ToolError(tool, `${relativePath}: ${reason}`, code === 'ENOENT' ? 'FILE_NOT_FOUND' : `FS_${code}`, { cause: error });
}
