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

/** Every key some action reads: a key of on_failure whether it applies depends on the action. */
export const ANY_ACTION_KEYS: readonly string[] = [...new Set(Object.values(POLICY_KEYS).flat())];

/**
 * `path` (in a build) is at or under a policy key of a chain step's on_failure whose `action` has
 * a format problem (`valid` says): which keys apply is not known, so only the action is said
 * (docs/workflows.md, "Policy keys must apply"); an unknown key is still said beside it.
 */
export function isUnderUnknownAction(path: readonly (string | number)[], valid: (path: (string | number)[]) => boolean): boolean {
  const policyKey = path[0] === 'agent' && path[1] === 'tools' && path[3] === 'chain' && path[4] === 'steps' && path[6] === 'on_failure' && path.length >= 8;
  return policyKey && ANY_ACTION_KEYS.includes(String(path[7])) && !valid([...path.slice(0, 7), 'action']);
}
