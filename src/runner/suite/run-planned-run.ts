import type { ScenarioRow } from '../report/report.js';
import { runScenario, type RunScenarioOptions } from '../scenario/run-scenario.js';
import type { PlannedRun } from './load-suite.js';
import { baseRow, INTERRUPTED_MID_RUN, skippedRow } from './not-run-rows.js';
import type { RunSuiteOptions } from './run-suite.js';
import { ABORT_GRACE_MS, DEFAULT_TIMEOUT_MS, Deadline, MAX_TIMEOUT_MS } from './timeouts.js';

/** What one planned run needs of the suite's options. */
export type RunPlannedOptions = Pick<RunSuiteOptions, 'timeoutMs' | 'skills' | 'env' | 'cassettes' | 'mcpServers' | 'signal' | 'hurry' | 'onSpans'> &
  Pick<RunScenarioOptions, 'onToolsListed'>;

/**
 * Runs one planned scenario x variant x repeat under its time limit (the scenario's timeout_ms,
 * else `timeoutMs`, else the default; agentcheck/vitest runs its scenarios through here too). The
 * limit aborts the run through its signal, like test-run's cap, so the engine ends the turn itself
 * and the row keeps what ran (transcript, usage, tool calls, spans); a run that ignores the abort
 * gets a bare TIMEOUT row ABORT_GRACE_MS later, never a hang.
 */
export async function runPlannedRun(run: PlannedRun, options: RunPlannedOptions): Promise<ScenarioRow> {
  if (run.scenario.skip) return skippedRow(run);
  const timeoutMs = Math.min(run.scenario.timeout_ms ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
  const deadline = new Deadline(timeoutMs, options.signal, limitSetting(run, options));
  const started = performance.now();
  // A run given up on may still finish later; its late spans must not reach the sink.
  let settled = false;
  try {
    const result = await Promise.race([
      runScenario(run.scenario, {
        variant: run.variant,
        revision: run.revision,
        repeat: run.repeat,
        skills: options.skills,
        env: options.env,
        cassettes: options.cassettes,
        mcpServers: options.mcpServers,
        signal: options.signal,
        deadline,
        onSpans: (spans) => {
          if (!settled) options.onSpans?.(spans);
        },
        onToolsListed: options.onToolsListed,
      }),
      deadline.abandoned(ABORT_GRACE_MS, options.hurry).then(() => 'abandoned' as const),
    ]);
    settled = true;
    if (result !== 'abandoned') return result;
    if (options.signal?.aborted && !deadline.timedOut) {
      const row = baseRow(
        run,
        'not_run',
        options.hurry?.aborted
          ? `${INTERRUPTED_MID_RUN}, and a second interrupt gave up on the run before it stopped: nothing it recorded is kept`
          : `${INTERRUPTED_MID_RUN}, and the run did not stop within ${ABORT_GRACE_MS} ms of being aborted: nothing it recorded is kept`,
      );
      row.duration_ms = Math.round(performance.now() - started);
      return row;
    }
    const row = baseRow(run, 'error', `${deadline.limitReason}, and it did not stop within ${ABORT_GRACE_MS} ms of being aborted: nothing it recorded is kept`);
    row.error = { type: 'TIMEOUT', message: row.reason };
    row.duration_ms = Math.round(performance.now() - started);
    return row;
  } finally {
    deadline.dispose();
  }
}

/** What set a run's time limit, for its TIMEOUT message. */
function limitSetting(run: PlannedRun, options: RunPlannedOptions): string {
  if (run.scenario.timeout_ms !== undefined) return "the scenario's timeout_ms";
  return options.timeoutMs === undefined ? 'the default per-run limit' : "--timeout, the config's timeout_ms or the timeoutMs option";
}
