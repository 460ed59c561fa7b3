import { displayPath } from '../files/display-path.js';

/** The last line of run and merge: the files written, or that none was (each failure was said on stderr). */
export function reportsLine(written: readonly string[], cwd: string): string {
  return `Reports: ${written.length ? written.map((file) => displayPath(file, cwd)).join(', ') : 'none written'}\n`;
}
