import type { Redactor } from '../../config/redactor.js';
import type { StrayErrorsRecord } from '../report/report.js';
import { guardProcessExit } from '../exit-guard.js';
import { lateStrayErrorsNote, strayErrorsNote } from '../reporters/format/stray-errors-note.js';

/** Errors thrown during a run where no code awaited them, kept to be said once the reports are out. */
export interface StrayErrors {
  /**
   * What the reports hold (scrubbed), or undefined when there were none: the errors thrown so
   * far. The reports are fixed from here on; errors thrown later are said on stderr only.
   */
  sealForReports(redactor: Redactor): StrayErrorsRecord | undefined;
  /**
   * The lines that say them on stderr (scrubbed), or undefined when there were none: one for
   * those the reports hold, with the same count, and one for those thrown after.
   */
  message(redactor: Redactor): string | undefined;
  /**
   * Resolves once Node has handed over the rejections left unhandled so far. A scripted run
   * settles in microtasks alone, and Node tells an unhandled rejection only after the microtasks
   * of a macrotask drain: a rejection in the run that ended last would be told after the reports.
   */
  settled(): Promise<void>;
  /** Puts Node's own handling back. */
  stop(): void;
}

/**
 * Catches, for the length of `agentcheck run`, an error no code awaited: a custom check's
 * unawaited rejected promise or a timer that throws (docs/custom-checks.md); a call of
 * process.exit() throws meanwhile. Node would end the
 * process at once, with no report and no rows; such an error cannot be tied to one row, so the
 * run goes on, writes its reports and fails (exit 1).
 */
export function catchStrayErrors(): StrayErrors {
  const caught: unknown[] = [];
  // How many of `caught` the reports hold: undefined until they are fixed.
  let reported: number | undefined;
  const keep = (error: unknown) => {
    caught.push(error);
  };
  process.on('unhandledRejection', keep);
  process.on('uncaughtException', keep);
  const releaseExit = guardProcessExit();
  return {
    sealForReports(redactor) {
      reported ??= caught.length;
      return recordOf(caught.slice(0, reported), redactor);
    },
    message(redactor) {
      const inReports = recordOf(caught.slice(0, reported), redactor);
      const later = reported === undefined ? undefined : recordOf(caught.slice(reported), redactor);
      const lines = [...(inReports ? [strayErrorsNote(inReports)] : []), ...(later ? [lateStrayErrorsNote(later)] : [])];
      return lines.length ? lines.map((line) => `agentcheck: ${line}\n`).join('') : undefined;
    },
    async settled() {
      // Two turns: the first one's own microtasks (this continuation among them) run before
      // Node looks for unhandled rejections at the end of that turn.
      for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    },
    stop() {
      process.removeListener('unhandledRejection', keep);
      process.removeListener('uncaughtException', keep);
      releaseExit();
    },
  };
}

/** The count and the first one, or undefined for none. */
function recordOf(errors: readonly unknown[], redactor: Redactor): StrayErrorsRecord | undefined {
  return errors.length ? { count: errors.length, first: redactor.text(describe(errors[0])) } : undefined;
}

/** The error's message and the first frame of its stack: where to look. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const frame = error.stack
    ?.split('\n')
    .slice(1)
    .find((line) => /^\s+at /.test(line))
    ?.trim();
  return `${error.name}: ${error.message}${frame ? ` (${frame})` : ''}`;
}
