import type { StrayErrorsRecord } from '../../report/report.js';

/**
 * `an error no code awaited was thrown during the run (...), so the run fails though its rows may
 * pass: Error: ... (at ...)`: what stderr, report.md and report.html say of a run's stray errors
 * (docs/custom-checks.md).
 */
export function strayErrorsNote(stray: StrayErrorsRecord): string {
  return `an error no code awaited was thrown during the run (a custom check's unawaited promise or a timer?), so the run fails though its rows may pass${countAndFirst(stray)}`;
}

/**
 * What stderr alone says of errors no code awaited thrown once the reports were being written
 * (they are in no report, yet fail the run; docs/custom-checks.md).
 */
export function lateStrayErrorsNote(stray: StrayErrorsRecord): string {
  return `an error no code awaited was thrown after the runs, once the reports were being written (a custom check's timer?), so the run fails though no report says so${countAndFirst(stray)}`;
}

/** `: Error: ...`, or ` (3 in all; the first:) Error: ...`. */
function countAndFirst(stray: StrayErrorsRecord): string {
  return `${stray.count > 1 ? ` (${stray.count} in all; the first:)` : ':'} ${stray.first}`;
}

/** The note as a sentence of its own: `An error no code awaited ...`. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
