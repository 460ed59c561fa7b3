import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

/** How many folders above the scenario's a "did you mean" looks for the path as written. */
const LEVELS_UP = 3;

/**
 * What a "not found" message about a path a scenario names adds: that it is relative to the
 * scenario file's folder (the usual slip is writing it as seen from the suite folder), and a
 * "did you mean" when the same path exists from a folder above. '' for an absolute path.
 */
export function scenarioPathHint(written: string, dir: string, kind: 'file' | 'folder'): string {
  if (isAbsolute(written)) return '';
  const hint = ` (a path in a scenario is relative to the scenario file's folder, ${dir}`;
  let folder = dir;
  for (let level = 0; level < LEVELS_UP && dirname(folder) !== folder; level++) {
    folder = dirname(folder);
    const candidate = resolve(folder, written);
    if (isKind(candidate, kind)) return `${hint}; did you mean ${relative(dir, candidate)}?)`;
  }
  return `${hint})`;
}

function isKind(path: string, kind: 'file' | 'folder'): boolean {
  try {
    const stat = statSync(path);
    return kind === 'file' ? stat.isFile() : stat.isDirectory();
  } catch {
    return false;
  }
}
