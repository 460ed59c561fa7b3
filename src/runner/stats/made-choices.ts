import type { ScenarioRow } from '../report/report.js';

/**
 * True when the row's run made choices the statistics can judge: it has a test_run (a run that
 * never started has none) and did not end with an error before the model answered and before any
 * tool was called (`no_choices`). Tool selection, turns and tokens read only such rows: an empty
 * call list there is no choice, and counting it would score a variant whose server did not start
 * as one whose model missed every tool (docs/statistics.md).
 */
export function madeChoices<Row extends Pick<ScenarioRow, 'test_run' | 'no_choices'>>(row: Row): row is Row & { test_run: NonNullable<Row['test_run']> } {
  return row.test_run !== null && row.no_choices !== true;
}
