import { danglingLinkWords } from '../../config/dangling-link.js';
import { statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { readError } from '../../config/read-error.js';
import { specialFileProblem } from '../../config/special-file.js';
import { RealFileSet } from '../files/real-file-set.js';
import { walkFiles } from '../files/walk-files.js';
import { emptyFoldersProblem } from './skipped-scenario-files.js';
import { SCENARIO_FILE } from './scenario-file-name.js';

export { SCENARIO_FILE };

/** A scenario file and the root its id is relative to. */
export interface FoundScenarioFile {
  file: string;
  root: string;
}

/**
 * Advice added to a path given that is no source of scenarios: one that does not exist, or a
 * folder that holds none (the CLI's: a flag's value written after the paths). Empty for none.
 */
export type PathHint = (given: string, cwd: string) => string;

/**
 * Finds scenario files under the given paths (recursively for folders, sorted); a path that
 * does not exist is a ConfigError. A file given by name is taken whatever its suffix.
 */
export function discoverScenarioFiles(paths: readonly string[], cwd = process.cwd(), pathHint: PathHint = () => ''): FoundScenarioFile[] {
  const found: FoundScenarioFile[] = [];
  const seen = new RealFileSet();
  const emptyFolders: string[] = [];
  for (const given of paths) {
    const absolute = resolve(cwd, given);
    let stats;
    try {
      stats = statSync(absolute);
    } catch (error) {
      // A path that is there but cannot be followed (a symlink loop, no permission) says why, as run does.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw readError(given, error);
      const link = danglingLinkWords(absolute);
      if (link) throw new ConfigError({ file: given }, `is ${link}; expected a scenario file or a folder of *.scenario.yaml files`, 'CONFIG_NOT_FOUND');
      throw new ConfigError(
        { file: given },
        `path not found: expected a scenario file or a folder of *.scenario.yaml files${pathHint(given, cwd)}`,
        'CONFIG_NOT_FOUND',
      );
    }
    const add = (file: string, root: string) => {
      // A named pipe would block the run in open(), deaf to Ctrl-C: refused unopened.
      const special = specialFileProblem(file, 'a scenario file');
      if (special) throw special;
      if (seen.add(file)) found.push({ file, root });
    };
    if (stats.isDirectory()) {
      const files = walkFiles(absolute, (name) => SCENARIO_FILE.test(name));
      if (!files.length) emptyFolders.push(given);
      for (const file of files) add(file, absolute);
    } else add(absolute, resolve(absolute, '..'));
  }
  // Beside paths that hold scenarios, an empty folder is a renamed folder or a typo: it would
  // drop its scenarios from the suite without a word. (With nothing found at all, run says so.)
  if (found.length && emptyFolders.length) throw emptyFoldersProblem(emptyFolders, cwd, 'run', pathHint);
  // Several paths share one root, their common folder, so `run a b` cannot give a/x and b/x
  // the same id (which merge, shards and --only-failed rely on being unique).
  const roots = [...new Set(found.map((entry) => entry.root))];
  if (roots.length > 1) {
    const root = commonFolder(roots);
    for (const entry of found) entry.root = root;
  }
  return found;
}

/** The deepest folder that contains every one of `folders` (absolute paths). */
function commonFolder(folders: readonly string[]): string {
  const split = folders.map((folder) => folder.split(sep));
  const shared: string[] = [];
  for (let i = 0; split.every((parts) => i < parts.length && parts[i] === split[0][i]); i++) shared.push(split[0][i]);
  return shared.join(sep) || sep;
}

/** A scenario id's file part: the path relative to the run root, with `/` separators. */
export function scenarioFileId(file: string, root: string): string {
  return relative(root, file).split(sep).join('/');
}
