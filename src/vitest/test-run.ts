import { executeTestRun, validateTestRunRequest, type TestRunRequest, type TestRunResult } from '../runner/test-run.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../runner/suite/timeouts.js';
import { recordTrajectory, trajectoryFromSpans } from './trajectory.js';

/**
 * agentcheck's testRun (docs/mcp.md, test_run) that also records the run's calls, so
 * `toHaveCalledTool(name, args)` and failure messages can show arguments. Same request, same result.
 */
export async function testRun(request: TestRunRequest): Promise<TestRunResult> {
  validateTestRunRequest(request);
  const record = await executeTestRun({ ...request, timeout_ms: request.timeout_ms ?? DEFAULT_TEST_RUN_TIMEOUT_MS });
  try {
    recordTrajectory(trajectoryFromSpans(record.spans), record.result);
  } finally {
    await record.workspace.dispose();
  }
  return record.result;
}
