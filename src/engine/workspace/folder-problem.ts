import { statSync } from 'node:fs';
import { shownName } from '../../config/cap-text.js';

/**
 * Why `path` cannot be a workspace's folder (`workspace folder not found: ...`, or that it is a
 * file), or undefined when it is a folder: the one wording of FolderWorkspace and every place
 * that checks a `workspace` path before a run (scenario, --workspace, testRun, test_run).
 */
export function workspaceFolderMissing(path: string): string | undefined {
  let isFolder;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // not there (or not reachable, ENOTDIR under a file): "not found" says it
    return `workspace folder not found: ${shownName(path)}`;
  }
  return isFolder ? undefined : `workspace must be a folder, but ${shownName(path)} is a file`;
}
