import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { shownName } from '../../config/cap-text.js';
import { realPathAllowMissing } from '../../config/real-path.js';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { readError } from '../../config/read-error.js';
import { holdsTempFolder, workspaceFolderMissing } from '../../engine/workspace/folder-problem.js';
import { COPYABLE_FOLDER, uncopyableFileIn } from '../../engine/workspace/uncopyable-files.js';
import { isRunArtifact } from '../resume/run-artifact-name.js';
import { compareCodeUnits } from '../../config/code-unit-order.js';

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
 * A link to a folder is searched like a folder (as globbing in vitest or promptfoo follows it);
 * each real folder is searched once, so a link back to a folder above it ends (docs/cli.md, run).
 */
export function walkFiles(dir: string, keep: (name: string) => boolean = () => true): string[] {
  return walk(dir, keep, new Set([realPathOf(dir)]));
}

function walk(dir: string, keep: (name: string) => boolean, searched: Set<string>): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw readError(dir, error);
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => compareCodeUnits(a.name, b.name))) {
    if (isSkippedEntry(entry.name)) continue;
    const path = join(dir, entry.name);
    // A link is followed when it leads to a folder; a link to a file (or a broken one) is a file.
    if (entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(path))) {
      const real = realPathOf(path);
      if (searched.has(real)) continue;
      searched.add(real);
      out.push(...walk(path, keep, searched));
    } else if (keep(entry.name)) out.push(path);
  }
  return out;
}

/** Folders of the kernel's pseudo file systems (Linux). */
const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys', '/dev'];

/** The kernel pseudo file system (`/proc`, `/sys`, `/dev`) `path` is in, links resolved; undefined for an ordinary path. */
export function pseudoFileSystemOf(path: string): string | undefined {
  const real = realPathOf(path);
  return PSEUDO_FILE_SYSTEMS.find((root) => isInsideFolder(root, real));
}

/**
 * Why `path` cannot be used as a workspace folder to copy (`workspace folder not found: ...`, that
 * it is a file, that it holds the temporary folder its copy would be made in, or a file in it the
 * copy cannot copy), or undefined when it is a folder. A missing folder would otherwise run on an
 * empty workspace and could even pass. `leaveOut` is a folder the copy leaves out (test-run's runs
 * folder), as it leaves out paused runs' files wherever they lie.
 */
export function workspaceFolderProblem(path: string, leaveOut?: string): string | undefined {
  // Kernel pseudo-files state sizes they do not hold (sysfs says 4096 of a 2-byte file): copying
  // them into a run's workspace never ends (docs/security.md, The workspace sandbox).
  const pseudo = pseudoFileSystemOf(path);
  if (pseudo) return `workspace ${shownName(path)} is under ${pseudo}, whose files are the kernel's, not files to copy; expected a folder of ordinary files`;
  const missing = workspaceFolderMissing(path);
  if (missing) return missing;
  // Said before the run, as invalid input: fs.cp would refuse it only once the run starts.
  const holds = holdsTempFolder(path);
  if (holds) return `workspace ${shownName(path)} cannot be copied: ${holds}`;
  // A named pipe, socket or device in it: the copy would fail on it only once the run starts.
  const [real, left] = [realPathOf(path), leaveOut === undefined ? undefined : realPathOf(leaveOut)];
  const skippedPath = left !== undefined && left !== real && isInsideFolder(real, left) ? join(path, relative(real, left)) : undefined;
  const uncopyable = uncopyableFileIn(path, (entry, name) => isRunArtifact(name) || entry === skippedPath);
  return uncopyable && `${uncopyable}; ${COPYABLE_FOLDER}`;
}

/**
 * `path` with its links resolved as far as it exists: a file or folder not yet there keeps its own
 * name under its resolved parent (a --spans file to be written, a missing workspace), and a link
 * to a missing target is followed (writing there would create the target). The workspace
 * sandbox's resolver (realPathAllowMissing); a link loop or an unreadable folder on the way leaves
 * the path as given.
 */
export function realPathOf(path: string): string {
  try {
    return realPathAllowMissing(path).path;
  } catch {
    return resolve(path);
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
