import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { createFolders } from '../../config/create-folders.js';
import { unwritableFolderProblem } from '../files/writable-folder.js';
import { mergeReports } from '../merge/merge-reports.js';
import { mergeSpanFiles } from '../merge/merge-spans.js';
import { rebaseRowFiles } from '../merge/rebase-row-files.js';
import { missingShardsNote } from '../reporters/format/missing-shards-note.js';
import { readShardReport, type ShardReport } from '../merge/read-shard-report.js';
import type { Report } from '../report/report.js';
import { createReporters, type Reporter } from '../reporters/index.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';
import { realPathOf } from '../files/walk-files.js';
import { reportsLine } from './display-path.js';
import { writeReports } from './write-reports.js';

export interface MergeOptions {
  out: string;
  /** Comma list of reporters; json is always written. */
  reporter?: string;
  /** Terminal output: failures and the summary only, as `run --quiet`. */
  quiet?: boolean;
}

/**
 * `agentcheck merge`: combine the report.json of each shard into OUT (json always, plus the
 * requested reporters) and OUT/spans.jsonl. Exit 0 when every merged row passed, no shard is
 * missing, was interrupted or had stray errors, and every report and the merged spans.jsonl were written; 1 otherwise; 2 when the inputs
 * cannot be merged.
 */
export async function mergeCommand(files: string[], options: MergeOptions, io: CommandIO): Promise<number> {
  let report: Report;
  let reporters: Reporter[];
  let inputs: ShardReport[];
  try {
    const names = (options.reporter ?? 'table').split(',').map((name) => name.trim());
    // The merged report.json is the point of merging; other formats are extras.
    reporters = await createReporters(['json', ...names]);
    // The same file twice (an overlapping glob) is the command line's mistake, not the report's.
    // Compared by real path: a link to a shard's folder names the same report.
    const seen = new Map<string, string>();
    for (const file of files) {
      const real = realPathOf(resolve(io.cwd, file));
      const earlier = seen.get(real);
      if (earlier !== undefined) throw new ConfigError({ file }, `is given twice (also as ${earlier}); give each report once`, 'MERGE_OVERLAP');
      seen.set(real, file);
    }
    // Writing into a shard's own folder would replace that shard's report and spans with the merge,
    // however either is spelt (absolute, `..`, through a symbolic link): the folder the input is
    // given in (its spans.jsonl is read there) and, for a link to a report, the folder it points into.
    const outDir = realPathOf(resolve(io.cwd, options.out));
    const inside = files.find((file) => {
      const given = resolve(io.cwd, file);
      return realPathOf(dirname(given)) === outDir || dirname(realPathOf(given)) === outDir;
    });
    if (inside !== undefined) {
      throw new ConfigError(
        { file: '--out' },
        `${options.out} holds the input ${inside}: the merged report.json and spans.jsonl would replace it; give another folder`,
        'MERGE_OVERLAP',
      );
    }
    inputs = files.map((file) => readShardReport(file, io.cwd));
    report = mergeReports(inputs);
    // Shards run in other checkouts name their files there: one root of this machine for all rows.
    rebaseRowFiles(report.scenarios, io.cwd);
  } catch (error) {
    return reportError(error, io);
  }

  const out = resolve(io.cwd, options.out);
  try {
    createFolders(out);
  } catch (error) {
    io.stderr.write(`agentcheck: invalid input: --out ${options.out}: ${(error as Error).message}\n`);
    return EXIT.invalidInput;
  }
  // A folder that is there but takes no files (/proc/self, read-only) is refused before the merge, as run refuses it.
  const unwritable = unwritableFolderProblem(out);
  if (unwritable) {
    io.stderr.write(`agentcheck: invalid input: --out ${options.out}: ${unwritable}; expected a folder agentcheck may create and write\n`);
    return EXIT.invalidInput;
  }
  const written: string[] = [];
  // An OUT/spans.jsonl that could not be written fails the merge, as a report does (docs/ci.md).
  let spansFailed = false;
  try {
    const merged = await mergeSpanFiles(files, out, io.cwd);
    if (merged.written) written.push(join(out, 'spans.jsonl'));
    // Their rows name trace ids the merged spans.jsonl lacks: said, so nobody queries for them in vain.
    if (merged.missing.length)
      io.stderr.write(`agentcheck: no spans.jsonl beside ${merged.missing.join(', ')}: the merged spans.jsonl lacks the spans of their rows\n`);
    for (const { file, why } of merged.skipped)
      io.stderr.write(`agentcheck: left out ${file}, which ${why}: the merged spans.jsonl lacks the spans of its rows\n`);
    if (merged.unreadable.length) {
      const shown = merged.unreadable.slice(0, 5).join(', ') + (merged.unreadable.length > 5 ? `, and ${merged.unreadable.length - 5} more` : '');
      io.stderr.write(`agentcheck: left out ${merged.unreadable.length} line(s) of the shards' spans.jsonl that are not span records: ${shown}\n`);
    }
    // Beside the new report.json, an earlier merge's spans would pass for this one's.
    if (merged.earlier !== null)
      io.stderr.write(
        `agentcheck: no shard had spans to merge; ${merged.earlier}, left as it was, holds an earlier run's or merge's spans, not this merge's\n`,
      );
  } catch (error) {
    // The reports matter more than the spans: say so and go on.
    spansFailed = true;
    io.stderr.write(`agentcheck: ${(error as Error).message}\n`);
  }
  // A report that was asked for and not written is a failed merge, never a silent pass.
  const reports = await writeReports(report, reporters, io, { out, quiet: options.quiet, cwd: io.cwd });
  written.push(...reports.written);
  // A shard that never wrote its report left scenarios unverified: not a pass.
  const missing = missingShardsNote(report);
  if (missing) io.stderr.write(`agentcheck: ${missing}\n`);
  // An interrupted shard's unreached rows are not_run; say which shard stopped early, whatever the rows say.
  const interrupted = inputs.filter((input) => input.report.interrupted === true).map((input) => input.file);
  if (interrupted.length) {
    io.stderr.write(
      `agentcheck: ${interrupted.length === 1 ? 'a shard was' : `${interrupted.length} shards were`} interrupted: ${interrupted.join(', ')} (the merged report is marked interrupted)\n`,
    );
  }
  // A shard's run that threw errors no code awaited failed (exit 1) though its rows may pass.
  const stray = inputs.filter((input) => input.report.stray_errors).map((input) => input.file);
  if (stray.length) {
    io.stderr.write(
      `agentcheck: ${stray.length === 1 ? 'a shard' : `${stray.length} shards`} had errors no code awaited: ${stray.join(', ')} (the merged report fails with them; its stray_errors holds the first)\n`,
    );
  }
  if (reports.failed) io.stderr.write('agentcheck: merge failed: a requested report was not written\n');
  else if (spansFailed) io.stderr.write('agentcheck: merge failed: the merged spans.jsonl was not written\n');
  // Last, as run's: the files written, where to look next.
  io.stdout.write(reportsLine(written, io.cwd));
  const { summary } = report;
  const passed = summary.failed + summary.errored + summary.not_run === 0;
  return passed && !missing && !interrupted.length && !stray.length && !reports.failed && !spansFailed ? EXIT.ok : EXIT.failed;
}
