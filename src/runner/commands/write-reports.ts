import { join } from 'node:path';
import type { Report } from '../report/report.js';
import type { Reporter, WholeRows } from '../reporters/reporter.js';
import { githubSwitchWarning } from '../ci/in-github-actions.js';
import { runCiReporters, stopWorkflowCommands } from './ci-reporters.js';
import type { CommandIO } from './cli-io.js';
import { writeQuietReportUnlessTable } from './quiet-terminal-report.js';
import { terminalWidth } from './terminal-width.js';

/** How run and merge hand a report to their reporters. */
export interface WriteReportsOptions {
  out: string;
  quiet?: boolean;
  /** Folder that file paths in reports are made relative to (reporter default: process.cwd()). */
  cwd?: string;
  wholeRows?: WholeRows;
}

/**
 * The report through every reporter, then the terminal's quiet report when no table was asked
 * for, then the CI reporters. A reporter that throws is named and the others still run: the
 * report files written, and whether any output failed (docs/cli.md, exit code 1).
 */
export async function writeReports(
  report: Readonly<Report>,
  reporters: readonly Reporter[],
  io: CommandIO,
  options: WriteReportsOptions,
): Promise<{ written: string[]; failed: boolean }> {
  const written: string[] = [];
  let failed = false;
  const layout = terminalWidth(io.env, io.columns);
  if (layout.warning) io.stderr.write(`${layout.warning}\n`);
  const githubWarning = githubSwitchWarning(io.env);
  if (githubWarning) io.stderr.write(`${githubWarning}\n`);
  const files = reporters.flatMap((reporter) => (reporter.file ? [reporter.file] : []));
  // The terminal output quotes model and tool text: on GitHub Actions, no line of it may run as a
  // workflow command (`##[warning]...`, `::add-mask::...`) until agentcheck's own annotations.
  const commandsStopped = stopWorkflowCommands(io);
  for (const reporter of reporters) {
    try {
      await reporter.onRunEnd(report, {
        out: options.out,
        stdout: io.stdout,
        color: io.isTTY && !io.env.NO_COLOR,
        cwd: options.cwd,
        columns: layout.columns,
        quiet: options.quiet,
        files,
        wholeRows: options.wholeRows,
      });
      if (reporter.file) written.push(join(options.out, reporter.file));
    } catch (error) {
      // A report that was asked for and not written fails the command, never a silent pass.
      failed = true;
      // Named by the file it could not write, as spans.jsonl is (`could not write <out>/report.json: ENOSPC ...`).
      const what = reporter.file ? `could not write ${join(options.out, reporter.file)}` : `the ${reporter.name} reporter failed`;
      io.stderr.write(`agentcheck: ${what}: ${(error as Error).message}\n`);
    }
  }
  await writeQuietReportUnlessTable(
    report,
    reporters.map((reporter) => reporter.name),
    io,
    layout.columns,
    files,
  );
  commandsStopped?.resume();
  if (!(await runCiReporters(report, options.out, io, files))) failed = true;
  return { written, failed };
}
