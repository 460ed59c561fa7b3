import type { CallResult } from '../tools/tool.js';

/** One step execution in a chain's result. */
export interface ChainStepRecord {
  /** The step's `id`, else `steps[<index>]`. */
  step_id: string;
  tool: string;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  status: 'success' | 'failed';
  /** The tool's result (after prompt security) when the step succeeded. */
  result?: unknown;
  /**
   * Why the step failed. Not called `error`, and the failed call's raw result is left out (it
   * stays on the nested execute_tool span): a failure the chain handled must not read as an
   * error token in a chain result that succeeded (docs/verdicts.md, The test_run verdict).
   */
  failure?: string;
}

/**
 * A chain's result (docs/workflows.md, Tool chains), returned whether it succeeded or not; `error` says why a
 * failed chain stopped.
 */
export interface ChainResult {
  success: boolean;
  chain_id: string;
  chain_name: string;
  steps_executed: number;
  steps_succeeded: number;
  steps_failed: number;
  results: ChainStepRecord[];
  final_state: Record<string, unknown>;
  completed_at: string;
  error?: string;
}

/**
 * Whether a call failed as a chain (and a flow step) sees it: the tool threw or returned an error
 * outcome (including refusals and a gate nobody answered), or returned an object that says
 * `status: "error"`, `is_error: true`, `ok: false` or a non-empty `error` string: the last two
 * are what the verdict's default error tokens count as failed (a Slack-style
 * `{ok: false, error: not_in_channel}`), so a fallback runs where the verdict would fail.
 */
export function isFailedCall(call: CallResult): boolean {
  if (call.isError || call.outcome !== 'ok') return true;
  const result = call.result;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return false;
  const fields = result as Record<string, unknown>;
  return fields.status === 'error' || fields.is_error === true || fields.ok === false || (typeof fields.error === 'string' && fields.error.trim() !== '');
}

/**
 * A short reason for a failed call, for the step record: the result's own `error` (or
 * `message`) text when it has one, else the result as text. A failed nested chain thus
 * contributes its `error` sentence, not its whole result as escaped JSON (which would double
 * its backslashes at every level of nesting).
 */
export function failureMessage(call: CallResult): string {
  const result = call.result as Record<string, unknown> | null;
  if (result && typeof result === 'object' && !Array.isArray(result)) {
    const said = result.error ?? result.message;
    if (typeof said === 'string' && said) return said;
  }
  return call.content;
}
