import { fchmodSync, lstatSync } from 'node:fs';
import { chmod } from 'node:fs/promises';

/**
 * The permission bits of the regular file at `path` that a new file is about to be renamed over,
 * or null: nothing there, no regular file (a symbolic link is itself replaced by the rename, not
 * the file it names), or it cannot be stat'ed; the new file then keeps the mode it was made with.
 */
export function replacedFileMode(path: string): number | null {
  try {
    const stat = lstatSync(path);
    // Permissions only: a set-id or sticky bit is no part of what a user hides a file with.
    return stat.isFile() ? stat.mode & 0o777 : null;
  } catch {
    return null;
  }
}

/**
 * Gives the new file open as `fd`, about to be renamed over `path`, the mode of the file there
 * (replacedFileMode), so an output the user made 0600 (it can hold tool outputs) does not come
 * back world-readable after the next write (docs/security.md). Throws when the mode cannot be set.
 */
export function keepReplacedModeSync(fd: number, path: string): void {
  const mode = replacedFileMode(path);
  if (mode === null) return;
  try {
    fchmodSync(fd, mode);
  } catch (error) {
    throw modeError(path, mode, error);
  }
}

/** keepReplacedModeSync for a new file known by its path, `file`, written and closed. */
export async function keepReplacedMode(file: string, path: string): Promise<void> {
  const mode = replacedFileMode(path);
  if (mode === null) return;
  try {
    await chmod(file, mode);
  } catch (error) {
    throw modeError(path, mode, error);
  }
}

/** Why the new file could not take the mode of the one it replaces: the replacement then stops, so the file is never left more readable than the user made it. */
function modeError(path: string, mode: number, error: unknown): Error {
  return new Error(`could not give the new ${path} the mode ${mode.toString(8).padStart(4, '0')} of the file it replaces: ${(error as Error).message}`);
}
