import { lstatSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { ConfigError } from '../../config/errors.js';
import { FolderWorkspace } from '../../engine/workspace/folder-workspace.js';
import { checkpointFilePath, readRunCheckpoint, removeRunCheckpoint, runsDir, workspaceDirFor } from '../resume/run-checkpoint-file.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import { EXIT, type CommandIO } from './cli-io.js';
import { reportRefusal, runAndReport } from './test-run-command.js';
import { refuseInsideRun } from '../recursion-guard.js';
import { requestNamesAtRun } from '../test-run.js';
import { memoryLocator } from '../../config/assert-format.js';
import { claimCheckpoint, refuseClaimedRun } from '../resume/resume-claim.js';
import { resumedNothing } from '../resume/resumed-nothing.js';
import { refuseAppendToNonSpansFile, refuseSpansOverBuildReads, refuseSpansOverInputs } from './spans-not-an-input.js';

/** Where a --spans that names a file resume reads should point instead. */
const SPANS_ADVICE = "the spans would be written into it: give the --spans file test-run was given (resume reads the checkpoint from that file's folder)";

export interface ResumeOptions {
  decision: 'approve' | 'deny';
  spans?: string;
  timeout?: number;
  json?: boolean;
}

/**
 * `agentcheck resume RUN_ID --decision approve|deny`: continues a paused test-run from its
 * checkpoint file (the engine's resume, in the workspace the pause left), prints the result
 * like test-run, and appends the resumed run's spans to `--spans`. A run that pauses again
 * gets a new run_id; an answered checkpoint is removed (its workspace has moved on).
 */
export async function resumeCommand(runId: string, options: ResumeOptions, io: CommandIO): Promise<number> {
  let file: string;
  let saved;
  let workspaceDir: string;
  let claimed: string;
  try {
    // Inside another run nothing resumes: said before the checkpoint is read or claimed.
    refuseInsideRun();
    // A run id is a file name part: refuse anything that could point elsewhere.
    if (!/^[A-Za-z0-9_-]+$/.test(runId))
      throw new ConfigError({ file: 'resume' }, `expected a run_id (letters, digits, - and _), got ${JSON.stringify(runId)}`);
    const dir = runsDir(io.cwd, options.spans);
    file = checkpointFilePath(dir, runId);
    const spans = options.spans;
    // The spans go to a file resume does not read, as test-run's do (docs/cli.md, test-run, --spans).
    if (spans !== undefined) refuseSpansOverInputs(spans, io.cwd, { "the paused run's checkpoint file": file }, SPANS_ADVICE);
    await refuseClaimedRun(file, runId);
    saved = await readRunCheckpoint(file, runId, io.env);
    if (spans !== undefined) {
      refuseSpansOverInputs(spans, io.cwd, { "the paused run's agent build file (test-run's --agent)": saved.revision.source }, SPANS_ADVICE);
      refuseSpansOverBuildReads(spans, io.cwd, saved.revision);
      refuseAppendToNonSpansFile(spans, io.cwd);
    }
    workspaceDir = pausedWorkspace(dir, runId, file);
    claimed = await claimCheckpoint(file, runId);
  } catch (error) {
    return reportRefusal(error, io);
  }
  const request = {
    agent: saved.revision,
    inputs: { messages: saved.checkpoint.state.messages },
    script: saved.script,
    mocks: saved.mocks,
    approvals: saved.approvals,
    expectations: saved.expectations,
    env: io.env,
    timeout_ms: options.timeout ?? DEFAULT_TEST_RUN_TIMEOUT_MS,
  };
  let ranNothing = false;
  const code = await runAndReport(
    request,
    saved.revision,
    { spans: options.spans, json: options.json, append: true },
    io,
    {
      from: { checkpoint: saved.checkpoint, decision: options.decision },
      workspace: FolderWorkspace.at(workspaceDir),
      earlierSpans: saved.spans,
      mockServed: saved.mock_served,
      // Its names are held to what its servers list now: a tool gone since the pause ends the run
      // before anything runs, and the checkpoint is kept.
      onToolsListed: requestNamesAtRun(request, saved.revision.build, memoryLocator(file)),
    },
    async (record) => {
      // Ended with an error before anything ran (its servers did not start, or --timeout or Ctrl-C
      // came first, as while slow servers start): the gated call never ran, so the run stays
      // paused and the decision may be given again once the cause is fixed.
      // The checkpoint goes back before the result is printed, so the run_id it carries answers.
      ranNothing = resumedNothing(record);
      if (!ranNothing || !(await putCheckpointBack(claimed, file, io))) return undefined;
      record.result.run_id = runId;
      return file;
    },
  );
  if (ranNothing) return code;
  // Answered (whatever the verdict); a run that could not start (exit 2) keeps its checkpoint too.
  if (code === EXIT.invalidInput) {
    await putCheckpointBack(claimed, file, io);
    return code;
  }
  const left = await removeRunCheckpoint(claimed);
  if (left) io.stderr.write(`agentcheck: ${left} (the answered checkpoint: delete it)\n`);
  return code;
}

/** Puts a claimed checkpoint back where `resume` finds it; says so on stderr when it cannot. */
async function putCheckpointBack(claimed: string, file: string, io: CommandIO): Promise<boolean> {
  try {
    await rename(claimed, file);
    return true;
  } catch (error) {
    io.stderr.write(`agentcheck: could not put the checkpoint back at ${file}: ${(error as Error).message}\n`);
    return false;
  }
}

/**
 * The paused run's workspace: always the `<run_id>.workspace` folder test-run made beside the
 * checkpoint, never a folder the file names (a hand-edited or copied file could name any folder,
 * which the run would write into and, on a second pause, move away). A symbolic link there is
 * refused for the same reason: the run would work in, and move, its target.
 */
function pausedWorkspace(dir: string, runId: string, file: string): string {
  const folder = workspaceDirFor(dir, runId);
  let kind: 'folder' | 'link' | 'other' | 'missing';
  try {
    const info = lstatSync(folder);
    kind = info.isSymbolicLink() ? 'link' : info.isDirectory() ? 'folder' : 'other';
  } catch {
    kind = 'missing';
  }
  if (kind === 'folder') return folder;
  const got = kind === 'missing' ? 'it is gone' : kind === 'link' ? 'it is a symbolic link' : 'it is not a folder';
  throw new ConfigError(
    { file },
    `expected the paused run's workspace folder beside the checkpoint, ${folder}: ${got} (resume works only in the folder test-run kept there)`,
  );
}
