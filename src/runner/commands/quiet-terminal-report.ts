import type { Report } from '../report/report.js';
import type { CommandIO } from './cli-io.js';

/**
 * Without the table reporter the terminal still says what failed and why, as `--quiet` does
 * (`run --reporter json`, `merge --reporter md`): a command that prints nothing and exits 1
 * leaves its user guessing. The modules load only then. `files`: the report files written.
 */
export async function writeQuietReportUnlessTable(
  report: Readonly<Report>,
  reporterNames: readonly string[],
  io: CommandIO,
  columns?: number,
  files?: readonly string[],
): Promise<void> {
  if (reporterNames.includes('table')) return;
  const [{ renderQuietReport }, { palette }] = await Promise.all([import('../reporters/quiet-report.js'), import('../reporters/format/ansi.js')]);
  io.stdout.write(renderQuietReport(report, palette(io.isTTY && !io.env.NO_COLOR), columns, files));
}
