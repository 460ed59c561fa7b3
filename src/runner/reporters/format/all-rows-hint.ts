import { JSON_REPORT_FILE, MD_REPORT_FILE, MD_ROW_LIMIT } from '../report-files.js';

/**
 * Where every row of a report can be read, for the terminal lines that say rows were left out
 * (docs/report-format.md, Terminal table): report.json, and report.md while it holds them all,
 * when the command writes them; else the `--reporter` that would. `files` are the names of the
 * report files written (default: report.json alone, as `table,json` writes).
 */
export function allRowsHint(total: number, files: readonly string[] = [JSON_REPORT_FILE]): string {
  const mdHoldsAll = total <= MD_ROW_LIMIT;
  const holders = files.filter((file) => file === JSON_REPORT_FILE || (mdHoldsAll && file === MD_REPORT_FILE));
  if (holders.length) return `every row is in ${holders.join(' and ')}`;
  return `for every row, add --reporter json${mdHoldsAll ? ' (or md)' : ''}`;
}

/**
 * How report.md and report.html name the file that holds what they leave out (more failures,
 * rows, messages): report.json, and when the command writes none, how to get it.
 */
export function fullReportPlace(files: readonly string[] = [JSON_REPORT_FILE]): string {
  return files.includes(JSON_REPORT_FILE) ? JSON_REPORT_FILE : `${JSON_REPORT_FILE} (written with --reporter json)`;
}
