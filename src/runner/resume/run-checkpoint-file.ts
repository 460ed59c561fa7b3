import { memoryLocator } from '../../config/assert-format.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { checkRequestNames } from '../scenario/check-scenario-names.js';
import { cp, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { unknownOptionKeys } from '../../config/option-keys.js';
import { createFolders } from '../../config/create-folders.js';
import { deepestPath } from '../../config/deepest-path.js';
import { formatPath } from '../../config/source.js';
import { ConfigError, throwConfigErrors, withCode } from '../../config/errors.js';
import { checkpointMisfit } from '../../engine/checkpoint/checkpoint-fit.js';
import { checkpointShapeProblems } from '../../engine/checkpoint/checkpoint-shape.js';
import type { Checkpoint } from '../../engine/checkpoint/checkpointer.js';
import type { ApprovalPolicy } from '../../engine/permissions/approval-policy.js';
import type { ScriptEntry } from '../../engine/providers/scripted.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import type { SpanRecord } from '../../spans/span-record.js';
import type { HttpMock } from '../mocks/http-mocks.js';
import { removeLeftoverAsync } from '../files/remove-leftover.js';
import { pseudoFileSystemOf } from '../files/walk-files.js';
import { writeFileAtomic } from '../report/write-atomic.js';
import { referToSecrets, restoreSecrets, type SecretReferences } from './checkpoint-secrets.js';
import { requestFieldProblems } from '../test-run-request.js';

/** Deeper than any checkpoint agentcheck writes, far below what overflows the stack. */
const MAX_CHECKPOINT_DEPTH = 1_000;

const SCHEMA = 'agentcheck.run-checkpoint/1';

/** Every top-level key of a checkpoint file: another one is a damaged file, refused as nested unknown keys are. */
const CHECKPOINT_KEYS: readonly (keyof RunCheckpointFile)[] = [
  'schema',
  'run_id',
  'revision',
  'checkpoint',
  'workspace_dir',
  'script',
  'mocks',
  'approvals',
  'expectations',
  'spans',
  'mock_served',
  'secrets',
];

/** What to do about a checkpoint that does not fit its own saved build, or waits for nothing (resume always answers). */
const MISFIT_ADVICE = {
  CHECKPOINT_MISMATCH: ', the build saved in this file: the file was changed after test-run wrote it; start over with agentcheck test-run',
  NOTHING_PENDING: ', so --decision has no gated call to answer; start over with agentcheck test-run',
} as const;

/** Where `agentcheck test-run` keeps paused runs when no `--spans` file names a folder. */
export const DEFAULT_RUNS_DIR = join('reports', 'runs');

/**
 * What `agentcheck resume` needs to continue a paused CLI run in another process: the build that
 * ran (after its delta, so the checkpoint's hashes match), the checkpoint (messages, pending
 * call) and what the run was given (script, mocks, approvals, expectations). Its workspace, as
 * the pause left it, is the `<run_id>.workspace` folder beside the file.
 */
export interface RunCheckpointFile {
  schema: typeof SCHEMA;
  run_id: string;
  revision: DeltaRevision;
  checkpoint: Checkpoint;
  /**
   * Where test-run kept the workspace, for the reader only: resume works in the folder beside the
   * file (workspaceDirFor), never in one the file names, which could be any folder (docs/cli.md, resume).
   */
  workspace_dir?: string;
  script?: ScriptEntry[];
  mocks?: { http?: HttpMock[] };
  approvals?: ApprovalPolicy;
  expectations?: { terminal_tool?: string; error_tokens?: string[] };
  /** The run's spans so far (every segment, joined): the resumed run is scored as the whole run. */
  spans?: SpanRecord[];
  /** How many requests each `mocks.http` entry (by index) had answered: its `responses` sequence goes on from there. */
  mock_served?: Record<string, number>;
  /** The variables whose values the file holds as markers (checkpoint-secrets.ts). */
  secrets?: SecretReferences;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The folder paused runs go to: the `--spans` file's folder, else `reports/runs` under `cwd`. */
export function runsDir(cwd: string, spansFile?: string): string {
  return spansFile === undefined ? resolve(cwd, DEFAULT_RUNS_DIR) : dirname(resolve(cwd, spansFile));
}

/**
 * Refuses a runs folder in a kernel pseudo file system (`--spans /dev/stdout` puts it in /dev):
 * a checkpoint and a whole workspace copy do not belong among device files (docs/cli.md, test-run).
 */
export function checkRunsDir(dir: string): void {
  const pseudo = pseudoFileSystemOf(dir);
  if (pseudo) {
    throw new Error(
      `its folder ${dir} (the --spans file's) is under ${pseudo}, the kernel's pseudo files, where no checkpoint or workspace copy is kept; give --spans a file in an ordinary folder`,
    );
  }
}

/** `<dir>/<run_id>.checkpoint.json`. */
export function checkpointFilePath(dir: string, runId: string): string {
  return join(dir, `${runId}.checkpoint.json`);
}

/** `<dir>/<run_id>.workspace`: the paused run's workspace, where its resumes keep working. */
export function workspaceDirFor(dir: string, runId: string): string {
  return join(dir, `${runId}.workspace`);
}

/** Copies a paused run's workspace next to its checkpoint (a temp workspace is removed after the run). */
export async function keepWorkspace(from: string, to: string): Promise<void> {
  createFolders(dirname(to));
  await cp(from, to, { recursive: true, verbatimSymlinks: true });
}

/**
 * Moves a resumed run's workspace to the folder of the run id it paused again under, so the
 * folder always carries the id `agentcheck resume` takes (docs/cli.md, test-run).
 */
export async function moveWorkspace(from: string, to: string): Promise<void> {
  createFolders(dirname(to));
  try {
    await rename(from, to);
  } catch (error) {
    // Another file system (the --spans folder of this resume elsewhere): copy, then remove.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await keepWorkspace(from, to);
    await rm(from, { recursive: true, force: true });
  }
}

/**
 * Writes the file, readable by its owner only; returns its path. The values of the environment's
 * secrets (`env`) are written as markers naming their variables, which resume fills in from its
 * own environment (checkpoint-secrets.ts; docs/security.md, "Paused runs").
 */
export async function writeRunCheckpoint(dir: string, saved: Omit<RunCheckpointFile, 'schema' | 'secrets'>, env: Env): Promise<string> {
  const file = checkpointFilePath(dir, saved.run_id);
  const { value, secrets } = referToSecrets({ schema: SCHEMA, ...saved }, env, saved.revision.build);
  await writeFileAtomic(file, `${JSON.stringify({ ...value, secrets }, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/**
 * Reads and checks a checkpoint file, its secrets filled in from `env`; a missing or foreign
 * file, and a secret variable `env` lacks or holds another value of, are ConfigErrors naming it.
 */
export async function readRunCheckpoint(file: string, runId: string, env: Env): Promise<RunCheckpointFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ConfigError(
        { file },
        `no paused run ${runId} here: agentcheck test-run writes <run_id>.checkpoint.json into the --spans file's folder (default ${DEFAULT_RUNS_DIR}); give resume the same --spans. A run is answered once: a resume that ran, also one cut off by --timeout or Ctrl-C, removed its checkpoint`,
        'CONFIG_NOT_FOUND',
      );
    }
    throw new ConfigError({ file }, `cannot read the checkpoint file: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError({ file }, `expected a JSON checkpoint file: ${(error as Error).message}`);
  }
  // Checked before anything walks it: a damaged file nested thousands deep would overflow the stack.
  const deep = deepestPath(value, MAX_CHECKPOINT_DEPTH);
  if (deep)
    throw new ConfigError(
      { file, path: formatPath(deep.slice(0, 1)) || undefined },
      `is nested more than ${MAX_CHECKPOINT_DEPTH} levels deep: not a checkpoint agentcheck wrote`,
    );
  const saved = value as Partial<RunCheckpointFile> | null;
  if (!saved || saved.schema !== SCHEMA) throw new ConfigError({ file, path: 'schema' }, `expected schema "${SCHEMA}"`);
  if (saved.run_id !== runId) throw new ConfigError({ file, path: 'run_id' }, `expected run_id "${runId}", got ${JSON.stringify(saved.run_id)}`);
  for (const key of ['revision', 'checkpoint'] as const) {
    if (!saved[key] || typeof saved[key] !== 'object') throw new ConfigError({ file, path: key }, `expected the paused run's ${key} object`);
  }
  // What the resumed run is given is held to testRun's rules: a damaged file is invalid input, not a TypeError mid-run.
  const { script, mocks, approvals, expectations, spans } = saved;
  const problems = requestFieldProblems({ script, mocks, approvals, expectations }, file);
  problems.push(...unknownOptionKeys(saved, CHECKPOINT_KEYS, file).map((problem) => withCode(problem, 'CHECKPOINT_INVALID')));
  // The names the run uses are held to its build, as a request's are (a terminal tool it lacks could never pass).
  const build = (saved.revision as { build?: unknown }).build;
  if (!problems.length && build && typeof build === 'object') {
    problems.push(...checkRequestNames({ terminalTool: expectations?.terminal_tool, script }, build as AgentBuild, memoryLocator(file)));
  }
  const buildValue = build && typeof build === 'object' ? (build as AgentBuild) : undefined;
  const shape = checkpointShapeProblems(saved.checkpoint, buildValue);
  for (const problem of shape) {
    problems.push(new ConfigError({ file, path: problem.path ? `checkpoint.${problem.path}` : 'checkpoint' }, problem.expected));
  }
  // What the engine's resume would refuse is refused here, before the run claims the file, so the file is kept.
  if (!shape.length && buildValue) {
    const misfit = checkpointMisfit(saved.revision as DeltaRevision, saved.checkpoint as Checkpoint, true);
    if (misfit) problems.push(new ConfigError({ file, path: `checkpoint.${misfit.path}` }, `${misfit.problem}${MISFIT_ADVICE[misfit.code]}`));
  }
  if (spans !== undefined && (!Array.isArray(spans) || spans.some((span) => typeof span !== 'object' || span === null || typeof span.name !== 'string'))) {
    problems.push(new ConfigError({ file, path: 'spans' }, "expected the run's span records (a list)"));
  }
  const served = saved.mock_served;
  // An index counts only for a mock the request has: another is a damaged file, not a sequence.
  const mockCount = Array.isArray(mocks?.http) ? mocks.http.length : 0;
  const servedOk =
    served === undefined ||
    (typeof served === 'object' &&
      served !== null &&
      !Array.isArray(served) &&
      Object.entries(served).every(([index, count]) => /^(0|[1-9]\d*)$/.test(index) && Number(index) < mockCount && Number.isSafeInteger(count) && count >= 0));
  if (!servedOk) {
    const indexes = mockCount === 0 ? 'none: the run has no mocks' : `0 to ${mockCount - 1}`;
    problems.push(
      new ConfigError({ file, path: 'mock_served' }, `expected {<mock index>: <requests answered>} with whole numbers >= 0 (mock indexes: ${indexes})`),
    );
  }
  throwConfigErrors(problems);
  // Checked with the markers in place: a message quoting a damaged field never shows a secret.
  const { secrets, ...rest } = saved;
  return restoreSecrets(rest as RunCheckpointFile, secrets, env, file);
}

/**
 * Removes a checkpoint once it was answered: its workspace has moved on, so it cannot be answered
 * twice. Never throws: returns why it could not be removed (the run's result still counts), else null.
 */
export async function removeRunCheckpoint(file: string): Promise<string | null> {
  return removeLeftoverAsync(file);
}
