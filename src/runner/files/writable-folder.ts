import { closeSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Why files cannot be created in the existing folder `dir` (no permission, a read-only or a
 * kernel pseudo file system), or undefined when they can: a file is created there and removed. A
 * command that writes its outputs only after its work says so before it (docs/cli.md, exit 2).
 */
export function unwritableFolderProblem(dir: string): string | undefined {
  const probe = join(dir, `.agentcheck-probe-${process.pid}-${Date.now().toString(36)}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    return `cannot create files in ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  rmSync(probe, { force: true });
  return undefined;
}
