import { libraryPausedRuns } from '../runner/resume/paused-run-store.js';
import { resumeLibraryRun, type ResumeTestRunRequest } from '../runner/resume/resume-test-run.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../runner/suite/timeouts.js';
import { executeTestRun, validateTestRunRequest, type TestRunRequest, type TestRunResult } from '../runner/test-run.js';
import { refuseInsideRun } from '../runner/recursion-guard.js';
import { listingRecorder, recordBuild } from './run-build.js';
import { recordTrajectory, trajectoryFromSpans } from './trajectory.js';

/**
 * agentcheck's testRun (docs/mcp.md, test_run) that also records the run's calls, so
 * `toHaveCalledTool(name, args)` and failure messages can show arguments. Same request, same result;
 * a paused run is kept for resumeTestRun, as the library's is.
 */
export async function testRun(request: TestRunRequest): Promise<TestRunResult> {
  refuseInsideRun();
  validateTestRunRequest(request);
  const run = { ...request, timeout_ms: request.timeout_ms ?? DEFAULT_TEST_RUN_TIMEOUT_MS };
  // What its servers list is recorded too: argument names are held to the parameters they close.
  const listing = listingRecorder();
  const record = await executeTestRun(run, undefined, { onToolsListed: listing.onToolsListed });
  try {
    recordTrajectory(trajectoryFromSpans(record.spans), record.result);
    recordBuild(record.revision.build, listing.listed(), record.result);
  } finally {
    await libraryPausedRuns.settle(record, run);
  }
  return record.result;
}

/**
 * agentcheck's resumeTestRun (docs/mcp.md, From code); the result records the whole run's calls,
 * before and after the pause, as its `tools` digest counts them.
 */
export async function resumeTestRun(request: ResumeTestRunRequest): Promise<TestRunResult> {
  // What its servers list when it resumes is recorded too, as testRun records it.
  const listing = listingRecorder();
  return resumeLibraryRun(
    request,
    (record) => {
      recordTrajectory(trajectoryFromSpans(record.runSpans), record.result);
      recordBuild(record.revision.build, listing.listed(), record.result);
    },
    listing.onToolsListed,
  );
}
