import { resolve } from 'node:path';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import { skillFolderProblems } from '../../skills/skill-folder-problems.js';

/**
 * Each `--overlay` folder (relative to `cwd`) must be a skill folder: `run` and `validate` check
 * them before anything else, as a config's skills.overlay is checked when it loads; every problem
 * is thrown at once.
 */
export function checkOverlayFolders(folders: readonly string[], cwd: string): void {
  throwConfigErrors(folders.flatMap((folder) => skillFolderProblems(resolve(cwd, folder), (expected) => new ConfigError({ file: '--overlay' }, expected))));
}
