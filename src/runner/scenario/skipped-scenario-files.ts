import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { isDirectory, isSkippedEntry } from '../files/walk-files.js';
import { SCENARIO_FILE } from './scenario-file-name.js';

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
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
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
