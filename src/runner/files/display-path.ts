import { relative } from 'node:path';
import { isInsideFolder } from '../../config/is-inside-folder.js';

/** A path relative to the working folder when it is inside it, else absolute (the `Reports:` line, notes and hints naming files). */
export function displayPath(file: string, cwd: string): string {
  return isInsideFolder(cwd, file) ? relative(cwd, file) || file : file;
}
