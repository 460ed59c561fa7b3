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
