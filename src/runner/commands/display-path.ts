import { relative } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';

/** A path relative to the working folder when it is inside it, else absolute (the `Reports:` line). */
export function displayPath(file: string, cwd: string): string {
  return isInsideFolder(cwd, file) ? relative(cwd, file) || file : file;
}

/** The last line of run and merge: the files written, or that none was (each failure was said on stderr). */
export function reportsLine(written: readonly string[], cwd: string): string {
  return `Reports: ${written.length ? written.map((file) => displayPath(file, cwd)).join(', ') : 'none written'}\n`;
}
