import { executeTestRun, validateTestRunRequest, type TestRunRequest, type TestRunResult } from '../runner/test-run.js';
import { recordTrajectory, trajectoryFromSpans } from './trajectory.js';

/**
 * agentcheck's testRun (docs/mcp.md, test_run) that also records the run's calls, so
 * `toHaveCalledTool(name, args)` and failure messages can show arguments. Same request, same result.
 */
export async function testRun(request: TestRunRequest): Promise<TestRunResult> {
  validateTestRunRequest(request);
  const record = await executeTestRun(request);
  try {
    recordTrajectory(trajectoryFromSpans(record.spans), record.result);
  } finally {
    await record.workspace.dispose();
  }
  return record.result;
}
