import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import type { ScenarioRow } from '../report/report.js';
import { isDirectory } from '../files/walk-files.js';

/**
 * Shards that ran in different checkouts (another CI machine's work folder) wrote their rows'
 * absolute `file` under their own run root. The ids are relative to that root, so each row's
 * root is its file minus the id's file part; rows are moved to one root of this machine (one
 * inside the current folder, else the same suite in this checkout, else one that exists here),
 * so JUnit suites and annotations name the same files as an unsharded run would. Rows whose
 * root cannot be told are left as they are.
 */
export function rebaseRowFiles(rows: ScenarioRow[], cwd: string): void {
  const roots = new Map<ScenarioRow, string>();
  for (const row of rows) {
    const idFile = idFileOf(row);
    const file = row.file.split('\\').join('/');
    if (idFile && file.endsWith(`/${idFile}`)) roots.set(row, row.file.slice(0, row.file.length - idFile.length - 1));
  }
  const candidates = [...new Set(roots.values())];
  if (!candidates.length) return;
  const inside = candidates.find((root) => isInsideFolder(cwd, root) && isDirectory(root));
  // No shard ran in this checkout: the same suite may still be here (each CI machine's own folder).
  const here = inside ?? checkoutRoot(candidates, [...roots.keys()], cwd) ?? candidates.find((root) => isDirectory(root));
  if (here === undefined || (candidates.length === 1 && here === candidates[0])) return;
  for (const [row, root] of roots) if (root !== here) row.file = join(here, idFileOf(row));
}

/**
 * The run root in this checkout: the current folder, or the folder under it named as a shard's
 * root ends (`scenarios` for `.../co1/scenarios`), in which every row's scenario file exists.
 */
function checkoutRoot(candidates: readonly string[], rows: readonly ScenarioRow[], cwd: string): string | undefined {
  const files = [...new Set(rows.map(idFileOf))];
  for (const root of candidates) {
    const parts = root.split(/[\\/]/).filter(Boolean);
    for (let keep = 0; keep <= Math.min(parts.length, MAX_ROOT_DEPTH); keep++) {
      const folder = join(cwd, ...parts.slice(parts.length - keep));
      if (isDirectory(folder) && files.every((file) => existsSync(join(folder, file)))) return folder;
    }
  }
  return undefined;
}

/** How many trailing folders of a shard's root are tried under the current folder. */
const MAX_ROOT_DEPTH = 4;

/** The file part of a row's id (`<file>#<name>`; a folder or file name may hold `#` too). */
function idFileOf(row: ScenarioRow): string {
  return row.id.endsWith(`#${row.name}`) ? row.id.slice(0, row.id.length - row.name.length - 1) : '';
}
