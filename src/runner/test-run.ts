import { resolve } from 'node:path';
import { memoryLocator, type Locator } from '../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../config/errors.js';
import type { InvokeOptions } from '../engine/invoke.js';
import { applyDelta, type DeltaRevision } from '../engine/revision/delta.js';
import { revisionFromValue } from '../engine/revision/load-build.js';
import { loadAgentFile } from './agent-file.js';
import type { AgentBuild, Revision } from '../engine/revision/types.js';
import { offlineEnv, providerEndpoints, providerOrigins } from './offline-env.js';
import { FolderWorkspace } from '../engine/workspace/folder-workspace.js';
import { installTracing } from '../spans/tracing.js';
// The verdict modules themselves, not the verdicts index: a run does not load every check kind.
import { buildEvidence } from '../verdicts/evidence.js';
import { scoreTestRun } from '../verdicts/test-run-verdict.js';
import { captureContent } from '../engine/content-capture.js';
import { REQUEST_CASSETTE_MODE } from './cassettes/cassette-mode-setting.js';
// Cassettes, mocks, judges and external spans are loaded by the runs that use them (start-up).
import type { MockScope } from './mocks/http-mocks.js';
import { unmatchedFails } from './mocks/unmatched-requests.js';
import { mergeSegments } from './resume/merge-segments.js';
import { removedByDelta } from './scenario/removed-by-delta.js';
import { isRunArtifact } from './resume/run-artifact-name.js';
import { libraryPausedRuns } from './resume/paused-run-store.js';
import { runSegments, type SegmentStart } from './resume/run-segments.js';
import { approvalsFor } from '../engine/permissions/check-approvals.js';
import { approvalsProblems } from '../engine/permissions/approvals-problems.js';
import { checkRequestNames, requestNames } from './scenario/check-scenario-names.js';
import { allListedHooks, listedNamesCheck, type ListedNamesCheck } from './scenario/listed-names-check.js';
import { noLoadSkillReason } from './scenario/load-skill-offered.js';
import { Deadline, DEFAULT_TEST_RUN_TIMEOUT_MS, markTimedOut } from './suite/timeouts.js';
import { REQUEST, testRunRequestProblems, type TestRunRequest } from './test-run-request.js';
import { buildSecrets, runRedactor } from './secrets/run-secrets.js';
import { buildAgent } from '../engine/revision/build-agent.js';
import { insideTestRun, refuseInsideRun } from './recursion-guard.js';

export { validateTestRunRequest, type TestRunRequest } from './test-run-request.js';
export type { ResumeRecord } from './resume/run-segments.js';
export type { TestRunControl, TestRunRecord, TestRunResult } from './test-run-types.js';
import type { TestRunControl, TestRunRecord, TestRunResult } from './test-run-types.js';

/**
 * Applies the delta to an in-memory copy of the revision, performs exactly one batch invoke
 * and scores it from its spans. The agent file is never written.
 */
export async function testRun(request: TestRunRequest): Promise<TestRunResult> {
  // Before the request is read: inside another run nothing would run, whatever it says.
  refuseInsideRun();
  // The library entry validates its request; the suite runner and the CLI hand over data their
  // loaders already validated.
  // The request's fields and what they name in the build, all in one pass.
  const { problems, script } = testRunRequestProblems(request);
  const fieldsValid = problems.length === 0;
  let revision: DeltaRevision | undefined;
  // The checks against the build read these fields: only when they are sound. `approvals` is read
  // beside its own format problems (approvalsProblems), and the script's entries each on
  // its own (an entry with a format problem as `{}`), so they hide no misspelt tool.
  const read = ['agent', 'delta', 'expectations'];
  const under = (problem: ConfigError, field: string) =>
    problem.path === field || problem.path?.startsWith(`${field}.`) || problem.path?.startsWith(`${field}[`);
  const sound = (problem: ConfigError) => problem.path !== undefined && !read.some((field) => under(problem, field));
  // With `skills` at fault (a misspelt delivery), whether load_skill is offered is not known: not concluded.
  const skillsSound = !problems.some((problem) => under(problem, 'skills'));
  if (fieldsValid || problems.every(sound)) collectConfigErrors(problems, () => (revision = requestRevision(request, skillsSound, { script })));
  throwConfigErrors(problems);
  const run = { ...request, timeout_ms: request.timeout_ms ?? DEFAULT_TEST_RUN_TIMEOUT_MS };
  // A paused run keeps its workspace for resumeTestRun; any other run's is removed.
  return libraryPausedRuns.settle(
    await executeTestRun(run, revision, { onToolsListed: revision && requestNamesAtRun(run, revision.build, memoryLocator(REQUEST)) }),
    run,
  );
}

/**
 * A request's names held to the tools its MCP servers list once the run has started them
 * (listed-names-check.ts), located as its load-time problems are; undefined without such a server.
 */
export function requestNamesAtRun(
  request: TestRunRequest,
  build: AgentBuild,
  locate: Locator,
  noLoadSkill: string | undefined = noLoadSkillReason([build], request.skills, { name: 'this run' }),
): ListedNamesCheck | undefined {
  // load_skill as the request's delivery offers it, so a list of names never offers it where it is refused.
  const { names, at } = requestNames({ terminalTool: request.expectations?.terminal_tool, script: request.script, noLoadSkill }, locate);
  return listedNamesCheck(names, [build], at);
}

/**
 * The revision a request makes (its agent, then its delta), with what the request names in it
 * checked as the CLI and MCP check it: approvals and names of tools (load_skill by the request's
 * `skills` only when `skillsSound`; the tool calls of `script`, the request's entries its format
 * check left intact). Every problem in one pass.
 * A caller that passes its own revision (a suite, with variants) checked them where it loaded them.
 */
function requestRevision(request: TestRunRequest, skillsSound = true, { script } = { script: request.script }): DeltaRevision {
  const base = toRevision(request.agent);
  const revision = applyDelta(base, request.delta ?? {}, `${REQUEST} delta`);
  // A name the delta took away is said to be gone because of it: the build as written still has it.
  const located = (path?: Array<string | number>) =>
    removedByDelta(request.delta === undefined ? undefined : base.build, revision.build, memoryLocator(REQUEST, path), "the request's delta");
  const problems: ConfigError[] = [];
  // Its format was checked with the request's fields (validateTestRunRequest): only the answers it left intact are held to the build.
  if (request.approvals !== undefined) problems.push(...approvalsProblems(request.approvals, revision.build, located(['approvals']), true));
  problems.push(
    ...checkRequestNames(
      {
        terminalTool: request.expectations?.terminal_tool,
        script,
        // Held to the delivery the run will make, the request's skills with the build's.
        noLoadSkill: skillsSound ? noLoadSkillReason([revision.build], request.skills, { name: 'this run' }) : undefined,
      },
      revision.build,
      located(),
    ),
  );
  throwConfigErrors(problems);
  return revision;
}

/** testRun that keeps the workspace and spans for checks (the scenario runner's entry). */
export async function executeTestRun(request: TestRunRequest, revisionOverride?: DeltaRevision, control: TestRunControl = {}): Promise<TestRunRecord> {
  // The env marker carries the guard across processes: an MCP server a run started (even
  // `agentcheck mcp` itself) is inside that run. Callers check it first too, before their files.
  refuseInsideRun();
  const revision = revisionOverride ?? requestRevision(request);
  // A request checked here (agentcheck/vitest's) has its names held to its servers' tools too,
  // after the caller's own hook (which records what they listed).
  const onToolsListed = revisionOverride
    ? control.onToolsListed
    : allListedHooks(control.onToolsListed, requestNamesAtRun(request, revision.build, memoryLocator(REQUEST)));
  const capture = captureContent(revision, request, request.env ?? process.env);
  // Every copy leaves paused runs' files out wherever they lie (an earlier runs folder, kept by
  // test-run or copied there): the agent never sees a checkpoint, whatever entry runs it (docs/mcp.md).
  const workspace =
    control.workspace ?? (request.workspace ? FolderWorkspace.copyOf(request.workspace, control.workspaceLeaveOut, isRunArtifact) : FolderWorkspace.temp());
  // Copied before the run, so a workspace that cannot be copied fails the run itself (naming
  // the file in the source folder) instead of failing every workspace tool the agent calls.
  if (request.workspace || control.workspace) await workspace.root();
  const { tracer, store } = installTracing();
  const cassette = request.cassette
    ? new (await import('./cassettes/cassette-session.js')).CassetteSession(
        request.cassette,
        control.cassetteSetting ?? REQUEST_CASSETTE_MODE,
        request.env ?? process.env,
        buildSecrets(revision.build, request.env ?? process.env),
      )
    : undefined;
  // Graders' endpoints pass through like the agent's own provider (or go to the cassette).
  const llms = [buildAgent(revision.build).llm, ...(control.judges ?? []).map((job) => job.llm)];
  const origins = llms.flatMap((llm) => providerOrigins(llm, request.env));
  const scope: MockScope = { mocks: request.mocks?.http ?? [], passthroughOrigins: origins, unmatched: [], cassette };
  if (control.mockServed) scope.served = new Map(Object.entries(control.mockServed).map(([index, count]) => [Number(index), count]));
  // An external agent's spans receiver; started before the deadline's timer, so one that cannot
  // start leaves no timer behind.
  const externalSpans = revision.build.external ? await import('./external-spans/run-external-spans.js') : undefined;
  const receiver = await externalSpans?.startRunSpanReceiver(revision.build, request.env ?? process.env);
  // The time limit aborts the engine through its signal, so the turn ends `error` with what it had.
  const ownDeadline =
    request.timeout_ms === undefined || control.deadline ? undefined : new Deadline(request.timeout_ms, request.signal, control.timeoutSetting);
  const deadline = control.deadline ?? ownDeadline;
  const signal = deadline?.signal ?? request.signal;
  const options: InvokeOptions = {
    tracer,
    workspace,
    script: request.script,
    model: request.model,
    // Held to every build they answer once the servers list their tools (run-approvals.ts): a
    // name this build lacks is dropped there, after the check, not here before it.
    approvals: request.approvals && (control.approvalsHeldTo?.length ? request.approvals : approvalsFor(request.approvals, revision.build)),
    skills: request.skills,
    env: offlineEnv(
      request,
      llms.flatMap((llm) => providerEndpoints(llm, request.env)),
    ),
    signal,
    mcpServers: request.mcpServers,
    approvalsHeldTo: control.approvalsHeldTo,
    onToolsListed,
    approvalsAt: control.approvalsAt,
    captureContent: capture,
    otlpEndpoint: receiver?.endpoint,
    beforeExternalStop: receiver ? () => receiver.settle() : undefined,
  };
  const start: SegmentStart = control.from ? { kind: 'checkpoint', ...control.from } : { kind: 'fresh', inputs: request.inputs };
  const segments = () => runSegments(revision, start, control.answers ?? [], options, (id) => store.take(id));
  // Only a caller's own Model runs caller code inside the run, in this process; every other way
  // back in goes through a child process (the env marker). Entering the AsyncLocalStorage turns
  // on Node 20's promise hooks for the whole process (a cost on every promise), so runs that
  // cannot nest in-process do not enter it.
  const run = request.model ? () => insideTestRun.run(true, segments) : segments;
  // A scenario that declares mocks (even an empty list) gets no live HTTP: unmatched requests are errors.
  const intercepted = request.mocks?.http !== undefined || cassette !== undefined;
  let segmented;
  try {
    segmented = intercepted ? await withHttpMocks(scope, run) : await run();
    // An external agent's own spans join the run before the redaction below and before evidence.
    if (receiver && externalSpans) await externalSpans.addExternalSpans(receiver, segmented, (spans) => store.scrub(spans), signal);
  } finally {
    ownDeadline?.dispose();
    await receiver?.close();
  }
  // A suite run scrubs spans as they end and its report at the end; a test_run on its own (CLI,
  // MCP, library) scrubs here, so every key it was given stays out of its result and spans too.
  const redactor = store.redacting ? undefined : runRedactor(request.env ?? process.env, [revision.build]);
  if (redactor) {
    segmented.turn = redactor.value(segmented.turn);
    segmented.spans = redactor.value(segmented.spans);
  }
  const { turn } = segmented;
  const spans = mergeSegments(segmented.spans);
  if (deadline?.timedOut && turn.stop_reason === 'error') markTimedOut(turn, spans, deadline);
  // A resume is judged as the whole run: the spans before its pause join its own.
  const runSpans = control.earlierSpans ? mergeSegments([control.earlierSpans, spans]) : spans;
  // One evidence for the verdict, the scenario's checks and judge graders, all scrubbed as the
  // spans are: an output check or a grader never sees a key that the spans hold as [redacted].
  const evidence = buildEvidence({
    spans: runSpans,
    transcript: store.scrub(turn.messages),
    output: store.scrub(turn.output),
    workspaceDir: request.workspaceEvidence ? await workspace.root() : undefined,
    errorTokens: request.expectations?.error_tokens,
  });
  // Judge checks are graded here, after the run and before any check is scored, through the
  // same mocks and cassette as the agent's calls; their spans join the run's, outside its evidence.
  if (control.judges?.length && !evidence.incomplete && !signal?.aborted) {
    const { gradeJudges } = await import('./judge/grade-judges.js');
    // A caller's deadline still runs (a suite's limit covers grading); the run's own cap is over.
    const grade = () => gradeJudges(control.judges ?? [], evidence, { tracer, store, env: options.env, signal: control.deadline?.signal ?? request.signal });
    const grading = intercepted ? await withHttpMocks(scope, grade) : await grade();
    evidence.judgements = grading.judgements;
    spans.push(...grading.spans);
  }
  // A run cut short (timeout, interrupt) would leave a cassette of a different run: keep the old
  // one. So would a run that ended in an error in auto mode (a provider that was down): its half
  // conversation must not replace a whole recorded one.
  // An external agent stopped at its own external.timeout_ms was cut short too.
  const halfRun = signal?.aborted === true || turn.error?.type === 'EXTERNAL_AGENT_TIMEOUT' || (request.cassette?.mode === 'auto' && turn.error !== undefined);
  if (cassette && !halfRun) await cassette.save();
  const score = scoreTestRun({
    spans,
    stop_reason: turn.stop_reason,
    error: turn.error,
    terminal_tool: request.expectations?.terminal_tool,
    error_tokens: request.expectations?.error_tokens,
    evidence,
  });
  const result: TestRunResult = {
    output: turn.output,
    tools: score.tools,
    // A resumed run's own spans start at the checkpoint: the decisions before it are carried over.
    approvals: score.approvals,
    resolved: score.resolved,
    // A resume's own trace (the joined evidence carries the first segment's id).
    trace_id: control.earlierSpans ? turn.trace_id : (evidence.trace_id ?? turn.trace_id),
    stop_reason: turn.stop_reason,
    verdict: score.verdict,
    verdict_reason: score.verdict_reason,
  };
  if (scope.unmatched.length) unmatchedFails(result, scope.unmatched, redactor);
  // A cassette failure leads, as on a scenario row: the model or tool error it caused is its symptom.
  const cassetteFailure = cassette?.outcome().failure;
  if (cassetteFailure) {
    result.verdict = 'failed';
    result.verdict_reason = `${cassetteFailure.type}: ${cassetteFailure.message}`;
  }
  const record: TestRunRecord = {
    result,
    turn,
    spans,
    evidence,
    revision,
    workspace,
    unmatched: scope.unmatched,
    cassette: cassette?.outcome(),
    resumes: segmented.resumes,
    runSpans,
    mockServed: Object.fromEntries(scope.served ?? []),
  };
  if (segmented.checkpoint) {
    record.checkpoint = segmented.checkpoint;
    result.run_id = segmented.checkpoint.traceId;
  }
  return record;
}

function toRevision(agent: TestRunRequest['agent']): Revision {
  // Read from process.cwd() by its absolute path, so "file not found" (and every problem of the
  // build) names where it was looked for, as the CLI and test_run name it.
  if (typeof agent === 'string') return loadAgentFile(resolve(agent));
  if ('build' in agent && 'hash' in agent) return agent as Revision;
  return revisionFromValue(agent, `${REQUEST} agent`);
}

/** Runs `fn` under the run's HTTP mocks; http-mocks.ts (and the fetch wrapper with it) loads only for runs that intercept. */
async function withHttpMocks<T>(scope: MockScope, fn: () => Promise<T>): Promise<T> {
  const mocks = await import('./mocks/http-mocks.js');
  return mocks.withHttpMocks(scope, fn);
}
