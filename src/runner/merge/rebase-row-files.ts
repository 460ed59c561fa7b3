import { join } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import type { ScenarioRow } from '../report/report.js';
import { isDirectory } from '../files/walk-files.js';

/**
 * Shards that ran in different checkouts (another CI machine's work folder) wrote their rows'
 * absolute `file` under their own run root. The ids are relative to that root, so each row's
 * root is its file minus the id's file part; rows are moved to one root of this machine (one
 * inside the current folder, else one that exists here), so JUnit suites and annotations name
 * the same files as an unsharded run would. Rows whose root cannot be told are left as they are.
 */
export function rebaseRowFiles(rows: ScenarioRow[], cwd: string): void {
  const roots = new Map<ScenarioRow, string>();
  for (const row of rows) {
    const idFile = idFileOf(row);
    const file = row.file.split('\\').join('/');
    if (idFile && file.endsWith(`/${idFile}`)) roots.set(row, row.file.slice(0, row.file.length - idFile.length - 1));
  }
  const candidates = [...new Set(roots.values())];
  if (candidates.length < 2) return;
  const here = candidates.find((root) => isInsideFolder(cwd, root) && isDirectory(root)) ?? candidates.find((root) => isDirectory(root));
  if (here === undefined) return;
  for (const [row, root] of roots) if (root !== here) row.file = join(here, idFileOf(row));
}

/** The file part of a row's id (`<file>#<name>`; a folder or file name may hold `#` too). */
function idFileOf(row: ScenarioRow): string {
  return row.id.endsWith(`#${row.name}`) ? row.id.slice(0, row.id.length - row.name.length - 1) : '';
}
