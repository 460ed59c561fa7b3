import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Why a folder that is yet to be used cannot be (`this is a file`, or `<parent>, above it, is a
 * file`), or undefined: a folder that is there, or one that can still be created.
 */
export function fileInPlaceOfFolder(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    let isFolder: boolean | undefined;
    try {
      isFolder = statSync(current).isDirectory();
    } catch {
      // Not there (yet): it can be created.
    }
    if (isFolder === false) return current === dir ? 'this is a file' : `${current}, above it, is a file`;
    if (isFolder || dirname(current) === current) return undefined;
  }
}
