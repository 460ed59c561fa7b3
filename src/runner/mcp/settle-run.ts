import type { TestRunRecord, TestRunRequest, TestRunResult } from '../test-run.js';
import type { McpServerContext } from './server-context.js';

/**
 * After a test_run or resume_run: its spans go to the history (for query_spans), whatever its
 * end; a paused run is kept for resume_run under its run_id, with its workspace; any other run's
 * workspace is removed. `keptPaused`: a resume that ran nothing, already back in the store with
 * its workspace, which must stay (docs/mcp.md, resume_run).
 */
export async function settleRun(record: TestRunRecord, request: TestRunRequest, context: McpServerContext, keptPaused = false): Promise<TestRunResult> {
  context.history.add(record.result.trace_id, record.spans);
  return keptPaused ? record.result : context.paused.settle(record, request);
}
