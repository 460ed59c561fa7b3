import type { ChainStepSpec } from '../revision/types.js';

/** A chain step's failure action. */
export type FailureAction = 'stop' | 'retry' | 'continue';

/**
 * `on_failure.action`, defaulting to `continue` when the policy names a `next` to branch to
 * (`on_failure: {next: handle_invalid_data}`), else `stop`.
 */
export function failureAction(policy: NonNullable<ChainStepSpec['on_failure']>): FailureAction {
  return policy.action ?? (policy.next !== undefined ? 'continue' : 'stop');
}

/** The on_failure keys each action reads; any other key would be silently ignored, so load refuses it. */
export const POLICY_KEYS: Record<FailureAction, readonly string[]> = {
  stop: [],
  continue: ['next'],
  retry: ['max_retries', 'backoff_ms', 'continue_on_max_retries', 'next'],
};
