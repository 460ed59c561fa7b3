import type { ScenarioRow } from '../report/report.js';
import type { PlannedRun } from './load-suite.js';

/*
 * The rows of runs that did not run to the end: skipped, never started, cut short by an
 * interrupt or given up on. Each still gets its row (docs/report-format.md).
 */

/**
 * The row of a run the suite never started: it was interrupted first. A scenario marked `skip`
 * is `skipped` all the same: that was known when the suite was planned, whatever the interrupt
 * cut off (so `--only-failed` never picks it up as not run).
 */
export function notRun(run: PlannedRun): ScenarioRow {
  if (run.scenario.skip) return skippedRow(run);
  return baseRow(run, 'not_run', 'not run: the suite was interrupted');
}

export const INTERRUPTED_MID_RUN = 'not run to the end: the suite was interrupted';

/**
 * The row of a run in flight when the suite was interrupted: `not_run`, since its end was cut
 * off, but keeping what it recorded (test_run with its trace_id, transcript, usage, turns, wall
 * time), so its spans in spans.jsonl keep their row (docs/report-format.md). Its checks are not
 * kept: they judged a cut run. A row made without running (skipped, or already not_run) stays.
 */
export function interruptedRow(run: PlannedRun, ran: ScenarioRow): ScenarioRow {
  if (ran.status === 'skipped' || ran.status === 'not_run') return ran;
  const row = baseRow(run, 'not_run', ran.error ? `${INTERRUPTED_MID_RUN} (${ran.error.type})` : INTERRUPTED_MID_RUN);
  row.test_run = ran.test_run;
  row.turns = ran.turns;
  row.duration_ms = ran.duration_ms;
  if (ran.resumes) row.resumes = ran.resumes;
  if (ran.usage) row.usage = ran.usage;
  if (ran.transcript) row.transcript = ran.transcript;
  return row;
}

/** The row of a scenario marked `skip` (status skipped, its reason): it is not run. */
export function skippedRow(run: PlannedRun): ScenarioRow {
  const why = typeof run.scenario.skip === 'string' ? run.scenario.skip : 'skip: true';
  return baseRow(run, 'skipped', `skipped (${why})`);
}

/** A row with no run result: the scenario's identity, a status and why. */
export function baseRow(run: PlannedRun, status: ScenarioRow['status'], reason: string): ScenarioRow {
  const row: ScenarioRow = {
    id: run.scenario.id,
    name: run.scenario.name,
    file: run.scenario.file,
    variant: run.variant,
    repeat: run.repeat,
    tags: run.scenario.tags,
    status,
    reason,
    test_run: null,
    checks: [],
    turns: 0,
    duration_ms: 0,
    error: null,
  };
  if (run.scenario.expect_failure) row.expect_failure = run.scenario.expect_failure;
  return row;
}
