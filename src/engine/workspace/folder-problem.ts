import { realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { shownName } from '../../config/cap-text.js';
import { isInsideFolder } from '../../config/is-inside-folder.js';
import { specialFileKind } from '../../config/special-file.js';

/**
 * Why `path` cannot be a workspace's folder (`workspace folder not found: ...`, or that it is a
 * file), or undefined when it is a folder: the one wording of FolderWorkspace and every place
 * that checks a `workspace` path before a run (scenario, --workspace, testRun, test_run).
 */
export function workspaceFolderMissing(path: string): string | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    // not there (or not reachable, ENOTDIR under a file): "not found" says it
    return `workspace folder not found: ${shownName(path)}`;
  }
  if (stats.isDirectory()) return undefined;
  // A named pipe, socket or device is called what it is, in the file tools' words.
  return `workspace must be a folder, but ${shownName(path)} is ${specialFileKind(stats) ?? 'a file'}`;
}

/**
 * Why the folder at `path` cannot be copied to a temp workspace when it holds the temporary
 * folder the copy is made in (`/`, or a folder TMPDIR points inside): a folder cannot be copied
 * into itself. Undefined otherwise, or when `path` is no folder (workspaceFolderMissing says so).
 * The one wording of FolderWorkspace.copyOf and the checks before a run (docs/cli.md, test-run).
 */
export function holdsTempFolder(path: string): string | undefined {
  let folder: string;
  try {
    folder = realpathSync(path);
  } catch {
    return undefined;
  }
  const temp = realPathOrAsGiven(tmpdir());
  if (!isInsideFolder(folder, temp)) return undefined;
  return `it holds the temporary folder ${shownName(temp)}, where its copy is made (a folder cannot be copied into itself); give a narrower folder, or set TMPDIR to a folder outside it`;
}

function realPathOrAsGiven(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
