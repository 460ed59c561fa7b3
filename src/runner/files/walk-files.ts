import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readError } from '../../config/read-error.js';

/**
 * Entries a folder walk leaves out: `node_modules` and names starting with `.` (`.git`, `.ci/`,
 * `.env.yaml`), which hold dependencies and tool state rather than the project's own files
 * (docs/cli.md, run).
 */
export function isSkippedEntry(name: string): boolean {
  return name === 'node_modules' || name.startsWith('.');
}

/**
 * Every file under `dir` whose name `keep` accepts, sorted, depth first. Skipped entries
 * (isSkippedEntry) are not searched; a folder that cannot be listed is a ConfigError naming it.
 */
export function walkFiles(dir: string, keep: (name: string) => boolean = () => true): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw readError(dir, error);
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (isSkippedEntry(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walkFiles(path, keep));
    else if (keep(entry.name)) out.push(path);
  }
  return out;
}

/** Folders of the kernel's pseudo file systems (Linux). */
const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys', '/dev'];

/**
 * Why `path` cannot be used as a workspace folder (`workspace folder not found: ...`, or that it
 * is a file), or undefined when it is a folder. A missing folder would otherwise run on an empty
 * workspace and could even pass.
 */
export function workspaceFolderProblem(path: string): string | undefined {
  // Kernel pseudo-files state sizes they do not hold (sysfs says 4096 of a 2-byte file): copying
  // them into a run's workspace never ends (docs/security.md, The workspace sandbox).
  const real = realPath(path);
  const pseudo = PSEUDO_FILE_SYSTEMS.find((root) => real === root || real.startsWith(`${root}/`));
  if (pseudo) return `workspace ${path} is under ${pseudo}, whose files are the kernel's, not files to copy; expected a folder of ordinary files`;
  if (isDirectory(path)) return undefined;
  let exists = false;
  try {
    statSync(path);
    exists = true;
  } catch {
    // not there (or not reachable): "not found" says it
  }
  return exists ? `workspace must be a folder, but ${path} is a file` : `workspace folder not found: ${path}`;
}

/** `path` with its links resolved, or as given when it cannot be (missing). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** True when `path` is an existing folder. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
