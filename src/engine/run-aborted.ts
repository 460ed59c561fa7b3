import { RunError } from '../config/errors.js';

/**
 * Ends a run between two of its steps once its signal has aborted (a test_run's or a scenario's
 * time limit, an interrupt, a library caller's signal): checked before each model call, each
 * tool call, each chain retry and each flow component, so a step that does not watch the
 * signal itself (the scripted model, a quick tool) cannot carry the run past its limit
 * (docs/engine-loop.md). The runner reports a time limit as TIMEOUT.
 */
export function throwIfRunAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason = signal.reason instanceof Error ? `: ${signal.reason.message}` : '';
  throw new RunError('RUN_ABORTED', `the run was aborted${reason}`);
}
