import type { StrayErrorsRecord } from '../../report/report.js';

/**
 * `an error no code awaited was thrown during the run (...), so the run fails though its rows may
 * pass: Error: ... (at ...)`: what stderr, report.md and report.html say of a run's stray errors
 * (docs/custom-checks.md).
 */
export function strayErrorsNote(stray: StrayErrorsRecord): string {
  const more = stray.count > 1 ? ` (${stray.count} in all; the first:)` : ':';
  return `an error no code awaited was thrown during the run (a custom check's unawaited promise or a timer?), so the run fails though its rows may pass${more} ${stray.first}`;
}

/** The note as a sentence of its own: `An error no code awaited ...`. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
