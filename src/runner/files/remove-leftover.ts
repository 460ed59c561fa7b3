import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/**
 * Removes a temporary or partial file agentcheck made on an output path, never throwing: the
 * outputs and the terminal report still come when it fails (docs/cli.md, exit code 1). Returns
 * null once the file is gone, also when its folder was deleted or replaced by a file meanwhile
 * (ENOENT, ENOTDIR: nothing can be left there); else why it could not be removed, naming it.
 */
export function removeLeftover(path: string, remove: (path: string, options: { force: true }) => void = rmSync): string | null {
  try {
    remove(path, { force: true });
    return null;
  } catch (error) {
    return leftoverProblem(path, error);
  }
}

/** removeLeftover with the promise API, for async writers. */
export async function removeLeftoverAsync(path: string): Promise<string | null> {
  try {
    await rm(path, { force: true });
    return null;
  } catch (error) {
    return leftoverProblem(path, error);
  }
}

function leftoverProblem(path: string, error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return null;
  return `could not remove ${path}: ${(error as Error).message}`;
}
