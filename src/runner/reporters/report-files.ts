/**
 * The names of report files in the output folder, and how many rows report.md lists: here, not
 * in their reporters, so the terminal lines that point at them load no reporter (reporters load
 * on demand, src/runner/reporters/index.ts).
 */

/** The JSON report's name inside the output folder. */
export const JSON_REPORT_FILE = 'report.json';
/** The Markdown report's name inside the output folder. */
export const MD_REPORT_FILE = 'report.md';
/** At most this many rows in report.md's all-rows table (GitHub caps a job summary at 1 MiB). */
export const MD_ROW_LIMIT = 500;
