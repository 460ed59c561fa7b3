import type { Report } from '../../report/report.js';

/** A run's one-word outcome, as report.md's title and report.html's heading say it (docs/report-format.md). */
export type RunVerdict = 'PASSED' | 'FAILED' | 'INTERRUPTED' | 'INCOMPLETE';

/**
 * FAILED when a row failed or errored, or an error no code awaited was thrown; else INTERRUPTED when the run was cut short (rows not
 * run); else INCOMPLETE for a merged report missing shards (their rows are absent, and merge
 * exits 1); else PASSED.
 */
export function runVerdict(report: Readonly<Report>): RunVerdict {
  const { failed, errored, not_run } = report.summary;
  if (failed || errored || report.stray_errors) return 'FAILED';
  if (report.interrupted || not_run) return 'INTERRUPTED';
  return missingShards(report).length ? 'INCOMPLETE' : 'PASSED';
}

/** The shards (1-based) a merged report lacks; empty for any other report. */
export function missingShards(report: Readonly<Report>): readonly number[] {
  return report.merged?.missing_shards ?? [];
}
