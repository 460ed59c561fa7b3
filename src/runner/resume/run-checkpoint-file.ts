import { cp, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createFolders } from '../../config/create-folders.js';
import { deepestPath } from '../../config/deepest-path.js';
import { describeValue } from '../../config/describe-value.js';
import { hashValue } from '../../config/canonical-json.js';
import { formatPath } from '../../config/source.js';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import { readStrictJson } from '../../config/strict-json.js';
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
import { runCheckpointProblems, savedDeltasProblems } from './check-run-checkpoint.js';

/** Deeper than any checkpoint agentcheck writes, far below what overflows the stack. */
const MAX_CHECKPOINT_DEPTH = 1_000;

const SCHEMA = 'agentcheck.run-checkpoint/1';

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
  /**
   * hashValue of `revision.build` as written (after the delta, secrets as markers): resume hashes
   * the saved build again to refuse one edited since (check-run-checkpoint.ts). `revision.hash`
   * cannot tell: it is the build file's hash, before the delta and skill refs made absolute.
   */
  build_hash: string;
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
export async function writeRunCheckpoint(dir: string, saved: Omit<RunCheckpointFile, 'schema' | 'build_hash' | 'secrets'>, env: Env): Promise<string> {
  const file = checkpointFilePath(dir, saved.run_id);
  // The build before the deltas is only the http engine's (an external run never pauses): not saved.
  const { base: _base, ...revision } = saved.revision;
  const { value, secrets } = referToSecrets({ schema: SCHEMA, ...saved, revision }, env, saved.revision.build);
  // The build as written is hashed, markers in place: the file holds no hash of a secret's value.
  const written = { ...value, build_hash: hashValue(value.revision.build), secrets };
  await writeFileAtomic(file, `${JSON.stringify(written, null, 2)}\n`, { mode: 0o600 });
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
  const value = parseCheckpointText(text, file);
  // Checked before anything walks it: a damaged file nested thousands deep would overflow the stack.
  const deep = deepestPath(value, MAX_CHECKPOINT_DEPTH);
  if (deep)
    throw new ConfigError(
      { file, path: formatPath(deep.slice(0, 1)) || undefined },
      `is nested more than ${MAX_CHECKPOINT_DEPTH} levels deep: not a checkpoint agentcheck wrote`,
    );
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError({ file }, `expected an object (a checkpoint agentcheck test-run wrote), got ${describeValue(value)}`);
  const saved = value as Partial<RunCheckpointFile>;
  if (saved.schema !== SCHEMA) throw new ConfigError({ file, path: 'schema' }, `expected schema "${SCHEMA}", got ${describeValue(saved.schema)}`);
  if (saved.run_id !== runId) throw new ConfigError({ file, path: 'run_id' }, `expected run_id "${runId}", got ${JSON.stringify(saved.run_id)}`);
  const problems = runCheckpointProblems(saved, file);
  throwConfigErrors(problems);
  // Checked with the markers in place: a message quoting a damaged field never shows a secret.
  const { secrets, ...rest } = saved;
  const restored = restoreSecrets(rest as RunCheckpointFile, secrets, env, file);
  // The deltas as applied, their secrets' values in place, hash as they did when the run made its delta hash.
  throwConfigErrors(savedDeltasProblems(restored, file));
  return restored;
}

/**
 * The file's JSON, read strictly (readStrictJson): a syntax error, or a key given twice (which
 * JSON.parse would keep the last of silently), is a ConfigError at its line and column, as in
 * every JSON file agentcheck reads. Numbers are read as JSON.parse reads them: test-run wrote them
 * with JSON.stringify, which writes a whole number beyond 2^53 (a model's argument) as its double.
 */
function parseCheckpointText(given: string, file: string): unknown {
  // A byte order mark (an editor on Windows may add one) is not JSON, but says nothing either.
  const text = given.charCodeAt(0) === 0xfeff ? given.slice(1) : given;
  const read = readStrictJson(text);
  if (!('problems' in read)) return read.value;
  const syntax = read.problems.filter((problem) => problem.code === 'CONFIG_SYNTAX');
  throwConfigErrors(
    syntax.map(
      ({ message, path, ...at }) =>
        new ConfigError(
          { file, ...at, path: path ? formatPath(path) || undefined : undefined },
          `${message} (expected the JSON checkpoint file agentcheck test-run wrote)`,
          'CONFIG_SYNTAX',
        ),
    ),
  );
  return read.value;
}

/**
 * Removes a checkpoint once it was answered: its workspace has moved on, so it cannot be answered
 * twice. Never throws: returns why it could not be removed (the run's result still counts), else null.
 */
export async function removeRunCheckpoint(file: string): Promise<string | null> {
  return removeLeftoverAsync(file);
}
