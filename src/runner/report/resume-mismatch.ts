import type { ScenarioRow } from './report.js';

/** How a fail row's reason starts when the scenario's `resume` list did not fit the run (docs/formats.md, Pause and resume). */
export const RESUME_MISMATCH = 'resume: ';

/** A fail row whose failure is its `resume` list not fitting the run (a pause left unanswered, an answer left over). */
export function isResumeMismatch(row: Pick<ScenarioRow, 'status' | 'reason'>): boolean {
  return row.status === 'fail' && row.reason.startsWith(RESUME_MISMATCH);
}
