import { setMaxListeners } from 'node:events';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { createFolders } from '../../config/create-folders.js';
import type { OtlpExport } from '../../spans/otlp-export.js';
import { printable } from '../reporters/format/printable.js';
import { resolveOtlpTarget } from '../../spans/otlp-target.js';
import { installTracing } from '../../spans/tracing.js';
import { createProgress, NO_PROGRESS } from '../progress/progress.js';
import { RowCompactor } from '../report/compact-row.js';
import type { Report } from '../report/report.js';
import { RowSpill } from '../report/row-spill.js';
import { SpansFile } from '../report/spans-file.js';
import { inGithubActions } from '../ci/in-github-actions.js';
import { isDirectory } from '../files/walk-files.js';
import { createReporters, type Reporter } from '../reporters/index.js';
import { checkSelection } from './check-selection.js';
import { redactReport } from '../secrets/redact-report.js';
import { runRedactor } from '../secrets/run-secrets.js';
import { redactedIdClash } from '../secrets/redacted-id-clash.js';
import { runSuite } from '../suite/run-suite.js';
import { reportsLine } from './display-path.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';
import { loadRunInput, type RunInput } from './run-input.js';
import { writeReports } from './write-reports.js';
import { RunSignals } from './run-signals.js';
import { catchStrayErrors, type StrayErrors } from './stray-errors.js';

export interface RunOptions {
  config?: string;
  variant?: string[];
  repeat?: number;
  maxRuns?: number;
  concurrency?: number;
  grep?: string;
  tag?: string[];
  reporter?: string;
  out?: string;
  shard?: { index: number; total: number };
  timeout?: number;
  overlay?: string[];
  cassettes?: string;
  /** OTLP/HTTP endpoint to export spans to (else OTEL_EXPORTER_OTLP_* decide). */
  otlp?: string;
  /** A previous report.json: rerun only its failed and errored scenario x variant pairs. */
  onlyFailed?: string;
  /** Terminal output: failures and the summary only. */
  quiet?: boolean;
}

/** `agentcheck run`: load and validate everything, run, always write the reports. */
export async function runCommand(paths: string[], options: RunOptions, io: CommandIO): Promise<number> {
  // Listening from the start: Ctrl-C while the suite loads would otherwise end the process by the
  // signal, with no report. Heard after loading, it leaves every planned run not_run (exit 1).
  const signals = new RunSignals(io.stderr);
  try {
    return await runSuiteCommand(paths, options, io, signals);
  } finally {
    signals.stop();
  }
}

async function runSuiteCommand(paths: string[], given: RunOptions, io: CommandIO, signals: RunSignals): Promise<number> {
  const startedAt = new Date();
  let input: RunInput | null;
  try {
    input = await loadRunInput(paths, given, io);
  } catch (error) {
    return reportError(error, io);
  }
  if (!input) return EXIT.ok;
  const { plan, config, scenarioPaths, reporterNames, cassettes, only, options } = input;
  // An empty selection is explained (and refused unless it is an empty shard); a partial --only-failed is noted.
  const refused = checkSelection({ plan, paths, scenarioPaths, options, config, only }, io);
  if (refused !== null) return refused;
  // Every key the run was given is scrubbed from spans (file and OTLP), progress and reports.
  const redactor = runRedactor(
    io.env,
    plan.runs.map((run) => run.revision.build),
  );
  const clash = redactedIdClash(
    plan.runs.map((run) => run.scenario),
    redactor,
  );
  if (clash) return reportError(clash, io);

  let otlp: OtlpExport | null = null;
  try {
    // The exporter and its dependencies load only when export is asked for.
    const target = resolveOtlpTarget(options.otlp, io.env);
    // Fed with each run's final records, so the collector gets what spans.jsonl gets.
    if (target) otlp = (await import('../../spans/otlp-export.js')).exportRunRecords(target);
  } catch (error) {
    return reportError(error, io);
  }

  const reporters = await createReporters(reporterNames);
  const out = resolve(io.cwd, options.out ?? config.out ?? 'reports');
  const compact = keepsCompactRows(reporters, io.env);
  let spansFile: SpansFile;
  // Whole rows wait on disk for the reporters that stream them (json); see keepsCompactRows.
  let spill: RowSpill | undefined;
  const compactor = new RowCompactor();
  // A temporary rows file that cannot be deleted is said, never thrown: the reports come first.
  const removeSpill = () => {
    const left = spill?.remove();
    if (left) io.stderr.write(`agentcheck: ${left} (a temporary rows file: delete it)\n`);
  };
  try {
    createFolders(out);
    // A folder where an output file goes would fail only after the whole suite ran: refused now.
    for (const name of ['spans.jsonl', ...reporters.flatMap((reporter) => (reporter.file ? [reporter.file] : []))]) {
      if (isDirectory(join(out, name))) throw new Error(`${join(out, name)} is a folder, where the file ${name} goes`);
    }
    if (compact && reporters.some((reporter) => reporter.rowAccess === 'streamed')) spill = new RowSpill(out, plan.runs.length);
    spansFile = new SpansFile(join(out, 'spans.jsonl'));
  } catch (error) {
    removeSpill();
    return reportError(
      new ConfigError(
        { file: options.out ?? out },
        `cannot write reports there: ${(error as Error).message}; expected a folder agentcheck may create and write`,
        'OUT_NOT_WRITABLE',
      ),
      io,
    );
  }
  let stray: StrayErrors | undefined;
  // Rows whose kept copy has the run's own id and variant, which hold a secret's value (keepRow).
  const identityKept: number[] = [];
  try {
    const { store } = installTracing();
    store.redactWith(redactor);
    // Every running scenario listens to this signal; at --concurrency 1000 that is no leak.
    setMaxListeners(0, signals.interrupt.signal);
    const progress = options.quiet ? NO_PROGRESS : createProgress(io.stderr, io.isTTY, plan.runs.length);
    stray = catchStrayErrors();
    let report: Report;
    try {
      report = await runSuite(plan, {
        concurrency: options.concurrency ?? config.concurrency,
        timeoutMs: options.timeout ?? config.timeout_ms,
        skills: {
          forced: config.skills.forced,
          overlay: [...config.skills.overlay, ...(options.overlay ?? []).map((p) => resolve(io.cwd, p))],
          delivery: config.skills.delivery,
        },
        env: io.env,
        cassettes,
        signal: signals.interrupt.signal,
        hurry: signals.hurry,
        // Progress prints counts only, never a row's text: nothing to scrub.
        onRowDone: (row, done, total) => progress.update(row, done, total),
        onSpans: (spans) => {
          spansFile.write(spans);
          otlp?.exportRecords(spans);
        },
        selection: { paths, config: config.file, shard: options.shard, grep: options.grep, tags: options.tag, overlay: options.overlay, cwd: io.cwd },
        startedAt,
        // Nothing here reads the plan after the run: scenarios are let go as their rows are made.
        releasePlan: true,
        // Scrubbed as they finish; whole rows go to disk, the report keeps compact ones.
        keepRow: compact
          ? (row, index) => {
              const scrubbed = redactor.value(row);
              spill?.write(scrubbed, index);
              const kept = compactor.compact(scrubbed);
              if (kept.id === row.id && kept.variant === row.variant) return kept;
              // A secret's value in the scenario's name or the variant's: runSuite places the row by
              // the run's own id and variant, which are scrubbed with the report below.
              identityKept.push(index);
              return { ...kept, id: row.id, variant: row.variant };
            }
          : undefined,
      });
    } finally {
      // The runs are over: a signal from here on no longer cuts spans.jsonl or the reports short.
      signals.writingReports(removeSpill);
      progress.finish();
      spansFile.close();
      store.redactWith(undefined);
    }
    // An output that could not be written (a full disk) is said once and fails the run; the
    // rows keep their real statuses.
    let outputFailed = false;
    if (spansFile.failure) {
      outputFailed = true;
      io.stderr.write(`agentcheck: could not write ${spansFile.path}: ${spansFile.failure}; it was not replaced (the reports are written if they can be)\n`);
    }

    // Every key the run was given is scrubbed from the report, as from spans and progress.
    // (Compact rows were scrubbed as they finished.)
    report = redactReport(redactor, report, { rowsScrubbed: compact });
    for (const index of identityKept) {
      const row = report.scenarios[index];
      report.scenarios[index] = { ...row, id: redactor.text(row.id), variant: redactor.text(row.variant) };
    }
    // The reports agree with the exit code: the errors thrown so far fail the run there too. Later
    // ones are said on stderr only, apart, so stderr's count of these agrees with report.json's.
    await stray.settled();
    const strayRecord = stray.sealForReports(redactor);
    if (strayRecord) report = { ...report, stray_errors: strayRecord };
    const reports = await writeReports(report, reporters, io, { out, quiet: options.quiet, wholeRows: spill });
    if (reports.failed) outputFailed = true;
    const written = [...(spansFile.failure ? [] : [join(out, 'spans.jsonl')]), ...reports.written];
    // Not kept while a slow OTLP collector is waited for below.
    removeSpill();
    // Last line of the output: where to look next.
    io.stdout.write(reportsLine(written, io.cwd));
    // The local reports are out: a signal ends the process again, but while a collector is waited
    // for the first one lets the export finish (docs/otlp-export.md).
    if (otlp) signals.exportingSpans(otlp.endpoint);
    else signals.stop();
    // After the reports: a slow or dead collector must not hold them back, nor change the exit code.
    const otlpWarning = await otlp?.finish();
    // It may quote the collector's words: the run's secrets and terminal controls stay out.
    if (otlpWarning) io.stderr.write(`${printable(redactor.text(otlpWarning))}\n`);
    // Caught until now: a stray timer may fire while the reports are written, or while a slow
    // collector is waited for. The process ends right after (bin/cli.ts): a timer still pending never fires.
    stray.stop();
    const strayMessage = stray.message(redactor);
    if (strayMessage) io.stderr.write(strayMessage);
    const { summary } = report;
    const clean = summary.failed + summary.errored + summary.not_run === 0 && !outputFailed && !strayMessage;
    return clean && !signals.interruptedAfterRuns ? EXIT.ok : EXIT.failed;
  } finally {
    // Also when the run or a reporter threw: the temporary rows never outlive the command.
    removeSpill();
    stray?.stop();
  }
}

/**
 * Whether the run may keep compact rows (compact-row.ts) instead of whole ones: when every
 * reporter reads compact or streamed rows, and no CI reporter (GitHub Actions, which renders
 * Markdown from every row) runs. docs/report-format.md, "Rows waiting on disk".
 */
function keepsCompactRows(reporters: readonly Reporter[], env: CommandIO['env']): boolean {
  return !inGithubActions(env) && reporters.every((reporter) => reporter.rowAccess === 'compact' || reporter.rowAccess === 'streamed');
}
