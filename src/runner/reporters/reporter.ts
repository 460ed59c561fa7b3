import type { Report, ScenarioRow } from '../report/report.js';

/**
 * What a reporter may touch: where to write files and the terminal. Passed explicitly (never
 * read from globals) so tests can point a reporter at a temp folder and a captured stream.
 */
export interface ReporterContext {
  /** The output folder (absolute); reporters that write files create it when missing. */
  out: string;
  /** Where terminal output goes (process.stdout in the CLI). */
  stdout: TextOutput;
  /** Whether terminal output may use ANSI colours (a TTY without NO_COLOR). */
  color: boolean;
  /** Terminal width for terminal output (process.stdout.columns); default 100 when not a terminal. */
  columns?: number;
  /** `--quiet`: terminal output shows failures and the summary only. */
  quiet?: boolean;
  /**
   * The names of the report files the command writes in `out` (`report.json`, `report.md`, ...),
   * so terminal output can say where every row is; absent: report.json alone.
   */
  files?: readonly string[];
  /** Folder that file paths in reports are made relative to; defaults to process.cwd(). */
  cwd?: string;
  /**
   * Every row whole, in plan order, read a row at a time, when `report.scenarios` holds compact
   * passing rows (agentcheck run with only `compact` and `streamed` reporters; docs/report-format.md).
   */
  wholeRows?: WholeRows;
}

/**
 * A stream reporters write text to: process.stdout, or a captured one. Its own type, not
 * NodeJS.WritableStream: the package's published declarations use no Node types (docs/vitest.md).
 */
export interface TextOutput {
  write(text: string): unknown;
}

/** Rows read one at a time from where they wait (agentcheck run's temporary rows file). */
export interface WholeRows extends Iterable<ScenarioRow> {
  /** The same rows as report.json text, each as report-json-chunks.ts `reportRowText` makes it. */
  texts(): Iterable<string>;
}

/**
 * What a reporter reads of the rows. `whole` (the default): every row of `report.scenarios` as
 * report.json holds it. `compact`: renders the same when passing rows are compact (compact-row.ts).
 * `streamed`: reads whole rows one at a time, from `ctx.wholeRows` when given.
 */
export type RowAccess = 'whole' | 'compact' | 'streamed';

/**
 * One report format. A reporter sees the finished, read-only Report and nothing of the
 * runner's internals, so a saved report.json can be rendered again by any reporter.
 */
export interface Reporter {
  /** The `--reporter` name that selects this reporter. */
  readonly name: string;
  /** The file it writes inside the output folder, if any (the terminal table writes none). */
  readonly file?: string;
  /** What it reads of the rows; absent means `whole`. */
  readonly rowAccess?: RowAccess;
  /** Renders the finished run; called once, also when scenarios failed or the run was interrupted. */
  onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void>;
}
