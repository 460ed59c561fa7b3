import type { TestRunRecord, TestRunRequest, TestRunResult } from '../test-run.js';
import type { McpServerContext } from './server-context.js';

/**
 * After a test_run or resume_run: its spans go to the history (for query_spans); a paused run is
 * kept for resume_run under its run_id, with its workspace; any other run's workspace is removed.
 */
export async function settleRun(record: TestRunRecord, request: TestRunRequest, context: McpServerContext): Promise<TestRunResult> {
  context.history.add(record.result.trace_id, record.spans);
  return context.paused.settle(record, request);
}
