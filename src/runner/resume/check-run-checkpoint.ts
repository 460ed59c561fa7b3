import { assertFormat, memoryLocator } from '../../config/assert-format.js';
import { describeValue } from '../../config/describe-value.js';
import { collectConfigErrors, ConfigError, withCode } from '../../config/errors.js';
import { keysOf, unknownOptionKeys } from '../../config/option-keys.js';
import { hashValue } from '../../config/canonical-json.js';
import { joinPaths } from '../../config/format-path.js';
import type { Checkpoint } from '../../engine/checkpoint/checkpointer.js';
import { checkpointRefusal, type CheckpointRefusal } from '../../engine/checkpoint/checkpoint-fit.js';
import { checkpointCommonProblems, checkpointShapeProblems, isTraceId } from '../../engine/checkpoint/checkpoint-shape.js';
import { checkApprovals } from '../../engine/permissions/check-approvals.js';
import { deltaSchema, type DeltaRevision } from '../../engine/revision/delta.js';
import { deltasHash } from '../../engine/revision/delta-hash.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { validateBuild } from '../../engine/revision/validate-build.js';
import { SPAN_RECORD_KEYS, wholeSpanRecordProblems } from '../../spans/span-record-check.js';
import { checkRequestNames } from '../scenario/check-scenario-names.js';
import { TEST_RUN_NO_LOAD_SKILL } from '../scenario/load-skill-offered.js';
import { requestFieldProblems } from '../test-run-request.js';
import type { RunCheckpointFile } from './run-checkpoint-file.js';

/** Every top-level key of a checkpoint file: another one is a damaged file, refused as nested unknown keys are. */
const CHECKPOINT_FILE_KEYS = keysOf<RunCheckpointFile>({
  schema: true,
  run_id: true,
  revision: true,
  checkpoint: true,
  workspace_dir: true,
  script: true,
  mocks: true,
  approvals: true,
  expectations: true,
  spans: true,
  mock_served: true,
  build_hash: true,
  secrets: true,
});

/** The keys of a saved revision (a DeltaRevision; its `base` is not saved: an external run never pauses). */
const REVISION_KEYS = keysOf<Omit<DeltaRevision, 'base'>>({ build: true, source: true, hash: true, deltaHash: true, deltas: true });

/** What to do about a checkpoint that does not fit its own saved build, or waits for nothing (resume always answers). */
const MISFIT_ADVICE = {
  CHECKPOINT_MISMATCH: ', the build saved in this file: the file was changed after test-run wrote it; start over with agentcheck test-run',
  NOTHING_PENDING: ', so --decision has no gated call to answer; start over with agentcheck test-run',
} as const;

type Saved = Partial<Record<keyof RunCheckpointFile, unknown>>;

/**
 * Every problem of a checkpoint file's fields (`file` names it), as a request's are checked
 * (docs/cli.md, test-run): a damaged field is a ConfigError at its path, never a TypeError
 * mid-run, and a key the file does not have, at any level, is refused naming it. The saved build
 * is held to an agent build's rules (the same messages a build file gets), and what the run
 * names (terminal tool, script calls, approvals) to that build; the checkpoint to its own shape
 * (checkpointShapeProblems) and to the build, as the engine's resume would hold it.
 */
export function runCheckpointProblems(saved: Saved, file: string): ConfigError[] {
  const problems = unknownOptionKeys(saved, CHECKPOINT_FILE_KEYS, file).map((problem) => withCode(problem, 'CHECKPOINT_INVALID'));
  // What the resumed run is given is held to testRun's rules.
  const { script, mocks, approvals, expectations } = saved;
  const fields = requestFieldProblems({ script, mocks, approvals, expectations }, file);
  problems.push(...fields);
  const before = problems.length;
  const build = revisionProblems(saved.revision, file, problems);
  const revisionSound = problems.length === before;
  // The names the run uses are held to its build, as a request's are (a terminal tool it lacks could never pass).
  if (build && !fields.length) {
    const names = expectations as RunCheckpointFile['expectations'];
    const request = { terminalTool: names?.terminal_tool, script: script as RunCheckpointFile['script'], noLoadSkill: TEST_RUN_NO_LOAD_SKILL };
    problems.push(...checkRequestNames(request, build, memoryLocator(file)));
    if (approvals)
      collectConfigErrors(problems, () => checkApprovals(approvals as { tools?: Record<string, unknown> }, [build], memoryLocator(file, ['approvals'])));
  }
  // What the engine's resume would refuse is refused here, in its order, before the run claims the
  // file, so the file is kept; a revision too damaged to compare with leaves the checkpoint's shape.
  // An edited build is another build's checkpoint, said before the checkpoint is held to that build.
  const refusal = revisionSound
    ? (editedBuildRefusal(saved) ?? checkpointRefusal(saved.revision as DeltaRevision, saved.checkpoint, true))
    : { damaged: checkpointShapeProblems(saved.checkpoint, build) };
  if (refusal && 'damaged' in refusal) {
    for (const problem of refusal.damaged) {
      problems.push(new ConfigError({ file, path: joinPaths('checkpoint', problem.path) }, problem.expected, 'CHECKPOINT_INVALID'));
    }
  } else if (refusal) {
    const { misfit } = refusal;
    problems.push(new ConfigError({ file, path: joinPaths('checkpoint', misfit.path) }, `${misfit.problem}${MISFIT_ADVICE[misfit.code]}`));
  }
  if (typeof saved.build_hash !== 'string') {
    const expected = 'expected the hash of the saved build test-run writes (a string)';
    problems.push(new ConfigError({ file, path: 'build_hash' }, `${expected}, got ${describeValue(saved.build_hash)}`, 'CHECKPOINT_INVALID'));
  }
  problems.push(...runIdProblems(saved, file));
  problems.push(...spansProblems(saved.spans, file));
  problems.push(...mockServedProblems(saved.mock_served, mocks, file));
  if (saved.workspace_dir !== undefined && typeof saved.workspace_dir !== 'string') {
    problems.push(
      new ConfigError(
        { file, path: 'workspace_dir' },
        `expected the folder test-run kept the workspace in (a string), got ${describeValue(saved.workspace_dir)}`,
      ),
    );
  }
  return problems;
}

/**
 * The saved revision's problems, pushed to `problems`: its keys, its hashes and source, its
 * deltas' format, and its build held to an agent build's rules (validateBuild, without looking
 * for skill folders or command files: the run saved them as it found them). Returns the build
 * when it is sound, for the checks that read it.
 */
function revisionProblems(revision: unknown, file: string, problems: ConfigError[]): AgentBuild | undefined {
  if (!revision || typeof revision !== 'object' || Array.isArray(revision)) {
    problems.push(new ConfigError({ file, path: 'revision' }, `expected the paused run's revision object, got ${describeValue(revision)}`));
    return undefined;
  }
  const given = revision as Record<string, unknown>;
  problems.push(...unknownOptionKeys(given, REVISION_KEYS, file, 'revision.').map((problem) => withCode(problem, 'CHECKPOINT_INVALID')));
  const at = (key: string, expected: string) =>
    problems.push(new ConfigError({ file, path: `revision.${key}` }, `${expected}, got ${describeValue(given[key])}`));
  for (const key of ['source', 'hash']) if (typeof given[key] !== 'string') at(key, 'expected a string');
  if (given.deltaHash !== null && typeof given.deltaHash !== 'string') at('deltaHash', 'expected a string or null');
  if (given.deltas !== undefined) {
    if (!Array.isArray(given.deltas)) at('deltas', 'expected the list of deltas applied');
    else
      given.deltas.forEach((delta, index) =>
        collectConfigErrors(problems, () => assertFormat(deltaSchema, delta, memoryLocator(file, ['revision', 'deltas', index]))),
      );
  }
  const sound = collectConfigErrors(problems, () => validateBuild(given.build, memoryLocator(file, ['revision', 'build'])));
  return sound ? (given.build as AgentBuild) : undefined;
}

/**
 * A saved build changed since test-run wrote the file: its hash, recomputed as test-run computed
 * `build_hash` (hashValue of the build as written), differs. The checkpoint then fits no build in
 * the file, as when `revision.hash` is edited (docs/cli.md, resume), and is refused at the same field.
 */
function editedBuildRefusal(saved: Saved): CheckpointRefusal | undefined {
  const checkpoint = saved.checkpoint as Checkpoint;
  if (typeof saved.build_hash !== 'string' || checkpointCommonProblems(checkpoint).length) return undefined;
  const hash = hashValue((saved.revision as DeltaRevision).build);
  if (hash === saved.build_hash) return undefined;
  const saver = `revision ${checkpoint.revisionHash}, delta ${checkpoint.deltaHash}, build_hash ${saved.build_hash}`;
  return {
    misfit: {
      code: 'CHECKPOINT_MISMATCH',
      path: 'revisionHash',
      problem: `checkpoint ${checkpoint.id} was saved by another build (${saver}; revision.build hashes to ${hash})`,
    },
  };
}

/**
 * The saved deltas (`file`'s, their secrets restored) held to the delta hash the run made of
 * them, recomputed as applyDelta computes it (deltasHash): a delta edited, added or removed since
 * test-run wrote the file is another build's, refused as runCheckpointProblems refuses one.
 */
export function savedDeltasProblems(saved: RunCheckpointFile, file: string): ConfigError[] {
  const { revision, checkpoint } = saved;
  const hash = deltasHash(revision.deltas);
  if (hash === revision.deltaHash) return [];
  const problem = `checkpoint ${checkpoint.id} was saved by another build (revision ${checkpoint.revisionHash}, delta ${checkpoint.deltaHash}; revision.deltas hash to ${hash})`;
  return [new ConfigError({ file, path: 'checkpoint.deltaHash' }, `${problem}${MISFIT_ADVICE.CHECKPOINT_MISMATCH}`)];
}

/**
 * The checkpoint's traceId is the run_id test-run printed and named the file after
 * (test-run.ts sets run_id from it): another one is a file changed after it was written.
 * A traceId that is no trace id at all is checkpointShapeProblems' to say, a run_id that is no string readRunCheckpoint's.
 */
function runIdProblems(saved: Saved, file: string): ConfigError[] {
  const traceId = (saved.checkpoint as { traceId?: unknown } | null | undefined)?.traceId;
  if (!isTraceId(traceId) || typeof saved.run_id !== 'string' || traceId === saved.run_id) return [];
  return [
    new ConfigError(
      { file, path: 'checkpoint.traceId' },
      `expected the paused run's trace id, ${JSON.stringify(saved.run_id)} (its run_id, which names the file), got ${JSON.stringify(traceId)}`,
      'CHECKPOINT_INVALID',
    ),
  ];
}

/** The run's spans so far: a list of whole span records (wholeSpanRecordProblems), each with only a record's keys. */
function spansProblems(spans: unknown, file: string): ConfigError[] {
  if (spans === undefined) return [];
  if (!Array.isArray(spans)) return [new ConfigError({ file, path: 'spans' }, `expected the run's span records (a list), got ${describeValue(spans)}`)];
  return spans.flatMap((span, index) => {
    const found = wholeSpanRecordProblems(span);
    const located = found.map((problem) => memoryLocator(file, ['spans', index])(problem.path, problem.expected));
    // Not a record at all: said once, not as one unknown key per entry.
    if (found.some((problem) => !problem.path.length)) return located;
    return [...located, ...unknownOptionKeys(span as object, SPAN_RECORD_KEYS, file, `spans[${index}].`)];
  });
}

/** How many requests each `mocks.http` entry had answered; an index counts only for a mock the request has. */
function mockServedProblems(served: unknown, mocks: unknown, file: string): ConfigError[] {
  const http = (mocks as RunCheckpointFile['mocks'])?.http;
  const mockCount = Array.isArray(http) ? http.length : 0;
  const sound =
    served === undefined ||
    (typeof served === 'object' &&
      served !== null &&
      !Array.isArray(served) &&
      Object.entries(served).every(([index, count]) => /^(0|[1-9]\d*)$/.test(index) && Number(index) < mockCount && Number.isSafeInteger(count) && count >= 0));
  if (sound) return [];
  const indexes = mockCount === 0 ? 'none: the run has no mocks' : `0 to ${mockCount - 1}`;
  return [
    new ConfigError(
      { file, path: 'mock_served' },
      `expected {<mock index>: <requests answered>} with whole numbers >= 0 (mock indexes: ${indexes}), got ${describeValue(served)}`,
    ),
  ];
}
