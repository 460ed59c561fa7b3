import { abortSignalProblem } from '../../config/abort-signal-problem.js';
import { memoryLocator, type Locator } from '../../config/assert-format.js';
import { unknownKeyMessage } from '../../config/option-keys.js';
import { ConfigError, RunError, throwConfigErrors } from '../../config/errors.js';
import { describeValue } from '../../config/describe-value.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS, MAX_TIMEOUT_MS } from '../suite/timeouts.js';
import { resumedNothing } from './resumed-nothing.js';
import { executeTestRun, requestNamesAtRun, type TestRunRecord, type TestRunRequest, type TestRunResult } from '../test-run.js';
import { allListedHooks, type ListedNamesCheck } from '../scenario/listed-names-check.js';
import { REQUEST } from '../test-run-request.js';
import { libraryPausedRuns, type PausedRunStore } from './paused-run-store.js';
import { refuseInsideRun } from '../recursion-guard.js';
import { assertResumable } from '../../engine/resume.js';

/** The answer to a paused run: MCP `resume_run`'s arguments, as the library takes them. */
export interface ResumeTestRunRequest {
  /** The `run_id` of a paused testRun (or resumeTestRun) result. */
  run_id: string;
  /** The answer to the gated call the run waits at. */
  decision: 'approve' | 'deny';
  /** The resumed run's wall-clock cap in ms (default 120000). */
  timeout_ms?: number;
  /** Aborts the resumed run, as testRun's `signal`. */
  signal?: AbortSignal;
}

const RESUME_REQUEST = 'resumeTestRun';

/**
 * Continues a run the library's `testRun` left paused (docs/mcp.md, From code): the decision
 * answers the gated call, and the run goes on from its checkpoint in the workspace the pause
 * left, with the request's script, mocks and approvals. A run that pauses again gets a new run_id.
 */
export async function resumeTestRun(request: ResumeTestRunRequest): Promise<TestRunResult> {
  return resumeLibraryRun(request);
}

/** resumeTestRun; `inspect` sees the run's record before its workspace is kept or removed (agentcheck/vitest). */
export async function resumeLibraryRun(
  request: ResumeTestRunRequest,
  inspect?: (record: TestRunRecord) => void,
  onToolsListed?: ListedNamesCheck,
): Promise<TestRunResult> {
  // Inside another run nothing resumes: said before the answer or its run_id is read.
  refuseInsideRun();
  validateResumeRequest(request);
  const { record, run, kept } = await continuePausedRun(libraryPausedRuns, request, 'in this process: give the run_id of a testRun or resumeTestRun result', {
    locate: memoryLocator(REQUEST),
    onToolsListed,
  });
  try {
    inspect?.(record);
  } finally {
    // A run kept paused keeps its workspace too.
    if (!kept) await libraryPausedRuns.settle(record, run);
  }
  return record.result;
}

/**
 * Takes the paused run out of `store` and continues it; `where` finishes the message for a
 * run_id the store does not hold (never paused there, already answered, or forgotten).
 */
export async function continuePausedRun(
  store: PausedRunStore,
  answer: ResumeTestRunRequest,
  where: string,
  names: { locate: Locator; onToolsListed?: ListedNamesCheck },
): Promise<{ record: TestRunRecord; run: TestRunRequest; kept: boolean }> {
  const paused = store.take(answer.run_id);
  if (!paused) {
    throw new RunError(
      'UNKNOWN_RUN',
      `no paused run ${answer.run_id} ${where} whose stop_reason is "paused" (each is answered once; the last ${store.maxRuns} are kept)`,
    );
  }
  // A checkpoint the engine would refuse (damaged: its pending call no longer the one its messages
  // hold waiting) is refused before anything runs, and the run kept, as a bad answer is.
  try {
    assertResumable(paused.revision, paused.checkpoint, answer.decision);
  } catch (error) {
    await store.add(answer.run_id, paused);
    throw error;
  }
  const run = { ...paused.request, timeout_ms: answer.timeout_ms ?? DEFAULT_TEST_RUN_TIMEOUT_MS, signal: answer.signal };
  try {
    const record = await executeTestRun(run, paused.revision, {
      from: { checkpoint: paused.checkpoint, decision: answer.decision },
      workspace: paused.workspace,
      earlierSpans: paused.spans,
      mockServed: paused.mockServed,
      // The request's names are held to what its servers list now, as at its first start: a tool
      // gone since the pause ends the resumed run before anything runs, and the run stays paused.
      onToolsListed: allListedHooks(names.onToolsListed, requestNamesAtRun(run, paused.revision.build, names.locate)),
    });
    // Nothing ran (a server that did not start, a name refused at its start): the gated call
    // never ran, so the run stays paused under its run_id, to be answered again once fixed; the
    // result carries that run_id, so the caller knows it still answers (docs/mcp.md, resume_run).
    // Unless its workspace is gone (a cleaner of temporary folders): no answer could go on there.
    if (resumedNothing(record) && record.turn.error?.type !== 'WORKSPACE_NOT_FOUND') {
      await store.add(answer.run_id, paused);
      record.result.run_id = answer.run_id;
      return { record, run, kept: true };
    }
    return { record, run, kept: false };
  } catch (error) {
    await paused.workspace.dispose().catch(() => undefined);
    throw error;
  }
}

/** A library caller's answer, checked as testRun's request is: every problem in one ConfigError. */
function validateResumeRequest(request: unknown): asserts request is ResumeTestRunRequest {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new ConfigError({ file: RESUME_REQUEST }, `expected {run_id, decision, timeout_ms?, signal?}, got ${describeValue(request)}`);
  }
  const given = request as Record<string, unknown>;
  const locate = memoryLocator(RESUME_REQUEST);
  const checks: Record<string, (value: unknown) => string | undefined> = {
    run_id: (value) => (typeof value === 'string' && value !== '' ? undefined : `expected the run_id of a paused result, got ${describeValue(value)}`),
    decision: (value) => (value === 'approve' || value === 'deny' ? undefined : `expected "approve" or "deny", got ${describeValue(value)}`),
    timeout_ms: (value) =>
      Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TIMEOUT_MS
        ? undefined
        : `expected an integer from 1 to ${MAX_TIMEOUT_MS}, got ${describeValue(value)}`,
    signal: (value) => abortSignalProblem(value) ?? undefined,
  };
  const problems: ConfigError[] = [];
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(checks, key)) problems.push(new ConfigError({ file: RESUME_REQUEST, path: key }, unknownKeyMessage(key, Object.keys(checks))));
  }
  for (const required of ['run_id', 'decision']) {
    if (given[required] === undefined) problems.push(new ConfigError({ file: RESUME_REQUEST }, `missing required key "${required}"`));
  }
  for (const [key, check] of Object.entries(checks)) {
    const value = given[key];
    const problem = value === undefined ? undefined : check(value);
    if (problem) problems.push(locate([key], problem));
  }
  throwConfigErrors(problems);
}
