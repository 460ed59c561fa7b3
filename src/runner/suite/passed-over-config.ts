import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { displayPath } from '../files/display-path.js';
import { SUITE_CONFIG_NAMES } from '../scenario/scenario-file-name.js';

/**
 * The suite config nearest a scenario file, in its folder or one above it up to `root` (the
 * folder the run was given), that is not the config the run uses: a run reads the config of the
 * current folder, of the one folder it is given, or the one named, never one in a folder below
 * (docs/cli.md, run). Undefined when there is none. Looked for only to explain a problem such a
 * config would have solved.
 */
export function passedOverConfig(scenarioFile: string, root: string, used: string | null): string | undefined {
  const top = resolve(root);
  for (let folder = dirname(resolve(scenarioFile)); isInsideFolder(top, folder);) {
    for (const name of SUITE_CONFIG_NAMES) {
      const file = join(folder, name);
      if (file !== used && existsSync(file)) return file;
    }
    if (folder === top) break;
    const parent = dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  return undefined;
}

/** `; <config> is not this run's suite config ...` for a problem that config would have solved, or ''. */
export function passedOverConfigHint(scenarioFile: string, root: string, used: string | null, cwd: string, what: string): string {
  const file = passedOverConfig(scenarioFile, root, used);
  if (file === undefined) return '';
  return `; ${displayPath(file, cwd)} may set ${what}, but it is not the suite config of this run (a run reads the config of the current folder, or of the one folder it is given, or the one named as its config; never one in a folder below): run its folder or name it as the config`;
}
