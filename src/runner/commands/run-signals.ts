import { ABORT_GRACE_MS } from '../suite/timeouts.js';

const GRACE_SECONDS = ABORT_GRACE_MS / 1000;

/**
 * What SIGINT and SIGTERM do during `agentcheck run` (docs/cli.md, `run`, Ctrl-C). While the suite
 * loads and runs, the first signal aborts the runs and the next gives up on those still stopping.
 * While spans.jsonl is closed and the reports are written (writingReports() to stop()), a signal
 * no longer ends the process mid-write: the reports are finished and the command fails. Only when
 * they hang (a job summary nobody reads) does a further signal, or ABORT_GRACE_MS after the first,
 * give up on them. While the final OTLP export is waited for (exportingSpans() to stop()), the
 * first signal lets it finish within its time limit and fails the command; the next ends the
 * process at once (docs/otlp-export.md). After stop(), a signal ends the process as Node's
 * default does.
 */
export class RunSignals {
  /** Aborted by the first signal: the suite stops scheduling and aborts its runs. */
  readonly interrupt = new AbortController();
  private readonly hurrying = new AbortController();
  /** Aborted by the second: runs still stopping are given up without the rest of their grace. */
  readonly hurry: AbortSignal = this.hurrying.signal;
  private phase: 'running' | 'writing' | 'exporting' | 'stopped' = 'running';
  private heardWhileWriting = false;
  private heardWhileExporting = false;
  private giveUpTimer: NodeJS.Timeout | undefined;
  private removeLeftovers: () => void = () => {};
  private exportEndpoint = '';
  private readonly listener = (signal: NodeJS.Signals) => this.heard(signal);

  constructor(private readonly stderr: NodeJS.WritableStream) {
    // `on`, not `once`: a listener that removes itself before running lets execa's signal-exit
    // believe it is alone and re-raise the signal, killing the process before the report is written.
    process.on('SIGINT', this.listener);
    process.on('SIGTERM', this.listener);
  }

  /**
   * The runs are over: from now on a signal lets the reports be finished. `removeLeftovers` is
   * called before the process ends on giving up on them (the temporary rows file).
   */
  writingReports(removeLeftovers: () => void): void {
    if (this.phase !== 'running') return;
    this.phase = 'writing';
    this.removeLeftovers = removeLeftovers;
  }

  /**
   * The local reports are written and the final OTLP export to `endpoint` is waited for: a first
   * signal lets it go on (within the exporter's own time limit), a further one ends the process.
   */
  exportingSpans(endpoint: string): void {
    if (this.phase === 'stopped') return;
    clearTimeout(this.giveUpTimer);
    this.phase = 'exporting';
    this.exportEndpoint = endpoint;
  }

  /** Whether a signal came once the runs were over (reports or export): the command then fails as an interrupted run does. */
  get interruptedAfterRuns(): boolean {
    return this.heardWhileWriting || this.heardWhileExporting;
  }

  /** Stops listening, once the local reports are written: a signal ends the process again. */
  stop(): void {
    this.phase = 'stopped';
    clearTimeout(this.giveUpTimer);
    process.removeListener('SIGINT', this.listener);
    process.removeListener('SIGTERM', this.listener);
  }

  private heard(signal: NodeJS.Signals): void {
    if (this.phase === 'running') {
      if (this.interrupt.signal.aborted) this.hurrying.abort();
      else this.interrupt.abort(new Error('interrupted'));
      return;
    }
    if (this.phase === 'exporting') {
      this.heardWhileExportingSpans(signal);
      return;
    }
    if (this.phase !== 'writing') return;
    if (this.heardWhileWriting) {
      this.giveUp(signal, 'another signal came while they were written');
      return;
    }
    this.heardWhileWriting = true;
    this.stderr.write(
      `agentcheck: interrupted while the reports are written: finishing them first (another Ctrl-C, or ${GRACE_SECONDS} s, gives up on them)\n`,
    );
    this.giveUpTimer = setTimeout(() => this.giveUp(signal, `they were still being written ${GRACE_SECONDS} s after the interrupt`), ABORT_GRACE_MS);
  }

  /**
   * A signal while the collector is waited for: the first one (unless the run was interrupted
   * already) is said and lets the export finish; another ends the process, without the export's
   * warning line: the reports are on disk, the spans not sent yet are lost.
   */
  private heardWhileExportingSpans(signal: NodeJS.Signals): void {
    if (this.interrupt.signal.aborted || this.heardWhileWriting || this.heardWhileExporting) {
      this.endBySignal(signal);
      return;
    }
    this.heardWhileExporting = true;
    this.stderr.write(
      `agentcheck: interrupted while the spans are exported to ${this.exportEndpoint}: the reports are written; waiting for the collector up to the export's time limit (another Ctrl-C gives up on the spans not sent yet)\n`,
    );
  }

  /** Ends the process by `signal`, saying which reports may be missing. */
  private giveUp(signal: NodeJS.Signals, why: string): void {
    this.stop();
    this.removeLeftovers();
    this.stderr.write(
      `agentcheck: the reports could not be finished (${why}): given up: a report not written yet is missing (or an earlier run's) and may leave its .<name>.<pid>.*.tmp file\n`,
    );
    this.endBySignal(signal);
  }

  /** Ends the process by `signal`, as Node's default would. */
  private endBySignal(signal: NodeJS.Signals): void {
    this.stop();
    // By the signal itself, as Node's default would: process.exit() waits for a file operation that
    // hangs (a named pipe nobody reads). Other listeners (a custom check's) would keep it alive.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }
}
