import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { isDirectory, isSkippedEntry } from '../files/walk-files.js';
import type { PathHint } from './discover.js';
import { SCENARIO_FILE } from './scenario-file-name.js';
import { compareCodeUnits } from '../../config/code-unit-order.js';

/** Folder entries the search reads at most: it runs only when nothing was found, and must stay cheap in a large node_modules. */
const ENTRY_BUDGET = 20_000;

/** How many found files a note names; the rest are counted. */
const SHOWN = 3;

/** A scenario file a folder walk left out, and the skipped entry (folder or file) it is under. */
interface SkippedScenarioFile {
  file: string;
  skipped: string;
}

/**
 * Says which scenario files a walk of `folders` skipped (isSkippedEntry: `.ci/`, `node_modules/`),
 * for a "nothing found" error of `command`: `; 1 scenario file was skipped: sub/.ci/a.scenario.yaml
 * (...; give it by name: agentcheck run sub/.ci)`. Empty when there are none within the budget.
 * `.git` is not looked into: it never holds a suite, and would use up the budget.
 */
export function skippedScenarioNote(folders: readonly string[], cwd: string, command: 'run' | 'validate'): string {
  const found: SkippedScenarioFile[] = [];
  const budget = { left: ENTRY_BUDGET };
  for (const folder of folders) {
    const absolute = resolve(cwd, folder);
    if (isDirectory(absolute)) search(absolute, undefined, found, budget);
  }
  if (!found.length) return '';
  const shown = (path: string) => (isInsideFolder(cwd, path) ? relative(cwd, path) || '.' : path);
  // Quoted when a shell would split or expand it, so the command can be pasted.
  const argument = (path: string) => (/^[\w./@+-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`);
  const names = found.slice(0, SHOWN).map((entry) => shown(entry.file));
  const more = found.length > SHOWN ? `, and ${found.length - SHOWN} more` : '';
  return (
    `; ${found.length} scenario file${found.length === 1 ? ' was' : 's were'} skipped: ${names.join(', ')}${more} ` +
    `(a folder search skips names starting with "." and node_modules folders; give it by name: agentcheck ${command} ${argument(shown(found[0].skipped))})`
  );
}

/** Depth first, sorted as walkFiles is; `skipped` is the outermost skipped entry above `dir`, once inside one. */
function search(dir: string, skipped: string | undefined, found: SkippedScenarioFile[], budget: { left: number }): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    // Only a hint: a folder that cannot be read adds nothing to it.
    return;
  }
  for (const entry of entries.sort((a, b) => compareCodeUnits(a.name, b.name))) {
    if (--budget.left < 0) return;
    const path = join(dir, entry.name);
    const under = skipped ?? (isSkippedEntry(entry.name) ? path : undefined);
    if (entry.isDirectory()) {
      if (entry.name !== '.git') search(path, under, found, budget);
    } else if (under && SCENARIO_FILE.test(entry.name)) {
      found.push({ file: path, skipped: under });
    }
  }
}

/**
 * Folders given beside paths that hold scenarios but holding none themselves: a renamed folder
 * or a typo, which would drop its scenarios without a word. `run` and `validate` say it alike;
 * `pathHint` adds the caller's advice for the first folder it has some for (run's: a skill folder
 * meant for --overlay).
 */
export function emptyFoldersProblem(emptyFolders: readonly string[], cwd: string, command: 'run' | 'validate', pathHint?: PathHint): ConfigError {
  const hint = pathHint ? (emptyFolders.map((folder) => pathHint(folder, cwd)).find(Boolean) ?? '') : '';
  return new ConfigError(
    { file: emptyFolders[0] },
    `holds no scenario file (*.scenario.yaml, *.scenarios.yaml), though the other paths given do${emptyFolders.length > 1 ? ` (nor do ${emptyFolders.slice(1).join(', ')})` : ''}; give only folders that hold scenarios${skippedScenarioNote(emptyFolders, cwd, command)}${hint}`,
    'CONFIG_NOT_FOUND',
  );
}

/** Why a search found no scenario file, naming the folders searched (`.` for the current one); run's and validate's words. */
export function noScenariosMessage(searched: readonly string[], cwd: string, command: 'run' | 'validate'): string {
  // Files there may be only in folders the search skips (`.ci/`): said, or the message would blame their names.
  return `no scenarios to run under ${searched.join(', ')} (scenario files are named *.scenario.yaml or *.scenarios.yaml)${skippedScenarioNote(searched, cwd, command)}`;
}

/** The folder a search without paths went through, as messages name it: relative to `cwd` (`.` for it) when inside. */
export function shownFolder(folder: string, cwd: string): string {
  return isInsideFolder(cwd, folder) ? relative(cwd, folder) || '.' : folder;
}
