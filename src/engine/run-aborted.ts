import { RunError } from '../config/errors.js';

/**
 * Ends a run between two of its steps once its signal has aborted (a test_run's or a scenario's
 * time limit, an interrupt, a library caller's signal): checked before each model call, each
 * tool call, each chain retry and each flow component, so a step that does not watch the
 * signal itself (the scripted model, a quick tool) cannot carry the run past its limit
 * (docs/engine-loop.md). The runner reports a time limit as TIMEOUT.
 */
export function throwIfRunAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw runAborted(signal);
}

/**
 * The error a run ends with once its signal aborted: RUN_ABORTED, whatever step the abort cut
 * short (a model call in flight says MODEL_ABORTED on its own span, not for the run).
 */
export function runAborted(signal: AbortSignal): RunError {
  const reason = signal.reason instanceof Error ? `: ${signal.reason.message}` : '';
  return new RunError('RUN_ABORTED', `the run was aborted${reason}`);
}
