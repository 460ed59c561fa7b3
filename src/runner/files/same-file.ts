import { statSync } from 'node:fs';
import { realPathOf } from './walk-files.js';

/**
 * True when the two paths name one file: the same path once links are resolved, or (both
 * existing) the same device and inode, which a hard link shares under another name.
 */
export function isSameFile(a: string, b: string): boolean {
  if (realPathOf(a) === realPathOf(b)) return true;
  try {
    const one = statSync(a);
    const other = statSync(b);
    return one.dev === other.dev && one.ino === other.ino;
  } catch {
    // One of them is not there (a --spans file still to be written): not the same file.
    return false;
  }
}
