import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { specialFileKind } from '../../config/special-file.js';
import { compareCodeUnits } from '../../config/code-unit-order.js';

/** Why a file of `kind` (specialFileKind's words) is not copied. */
function uncopyableReason(kind: string): string {
  return `it is ${kind}, which cannot be copied`;
}

/** Why fs.cp gives up, in words, by its error code, for the kinds of file it cannot copy. */
export const UNCOPYABLE_REASONS: Readonly<Record<string, string>> = {
  ERR_FS_CP_FIFO_PIPE: uncopyableReason('a named pipe (FIFO)'),
  ERR_FS_CP_SOCKET: uncopyableReason('a socket'),
  // fs.cp's word for any other kind of file: a device, as the file tools call it (special-file.ts).
  ERR_FS_CP_UNKNOWN: uncopyableReason('a device'),
};

/** What a workspace folder holding such a file is expected to be (test-run --workspace, test_run, a scenario's workspace). */
export const COPYABLE_FOLDER = 'expected a folder of regular files, folders and symbolic links';

/**
 * `workspace could not be copied: <file>: <reason>` for the first file under `folder` (sorted,
 * depth first) that a workspace copy cannot copy: a named pipe, a socket or a device (fs.cp would
 * refuse the first two and read a device for ever). Undefined when there is none. Links are not
 * followed (the copy keeps them as links); entries `leftOut` accepts are not searched (what the
 * copy leaves out); a folder that cannot be listed is left to the copy to report. The same words
 * as the copy's own failure (FolderWorkspace.copyOf), so a run refused before it starts and one
 * whose folder changed since say it alike.
 */
export function uncopyableFileIn(folder: string, leftOut: (path: string, name: string) => boolean = () => false): string | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries.sort((a, b) => compareCodeUnits(a.name, b.name))) {
    const path = join(folder, entry.name);
    if (leftOut(path, entry.name)) continue;
    if (entry.isDirectory()) {
      const inside = uncopyableFileIn(path, leftOut);
      if (inside) return inside;
      continue;
    }
    // The copy keeps a link as a link; any other entry is a file the file tools' words name.
    const kind = entry.isSymbolicLink() ? undefined : specialFileKind(entry);
    if (kind) return `workspace could not be copied: ${path}: ${uncopyableReason(kind)}`;
  }
  return undefined;
}
