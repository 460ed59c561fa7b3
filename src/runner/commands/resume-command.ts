import { readdir, rename } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { FolderWorkspace } from '../../engine/workspace/folder-workspace.js';
import { isDirectory } from '../files/walk-files.js';
import { checkpointFilePath, readRunCheckpoint, removeRunCheckpoint, runsDir, workspaceDirFor } from '../resume/run-checkpoint-file.js';
import { DEFAULT_TEST_RUN_TIMEOUT_MS } from '../suite/timeouts.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';
import { runAndReport } from './test-run-command.js';
import { isProcessRunning } from '../files/process-running.js';

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
  try {
    // A run id is a file name part: refuse anything that could point elsewhere.
    if (!/^[A-Za-z0-9_-]+$/.test(runId))
      throw new ConfigError({ file: 'resume' }, `expected a run_id (letters, digits, - and _), got ${JSON.stringify(runId)}`);
    const dir = runsDir(io.cwd, options.spans);
    file = checkpointFilePath(dir, runId);
    await takeBackStaleClaim(file);
    saved = await readRunCheckpoint(file, runId, io.env);
    // A runs folder moved or copied elsewhere (a CI artifact) keeps the workspace beside the checkpoint.
    const beside = workspaceDirFor(dir, runId);
    if (!isDirectory(saved.workspace_dir) && isDirectory(beside)) saved.workspace_dir = beside;
    if (!isDirectory(saved.workspace_dir)) {
      throw new ConfigError({ file, path: 'workspace_dir' }, `the paused run's workspace folder is gone: ${saved.workspace_dir}`);
    }
  } catch (error) {
    return reportError(error, io);
  }
  // Claimed before the run, by renaming the file (atomic): a second resume of the same run_id
  // started meanwhile finds no checkpoint, as a second MCP resume_run gets UNKNOWN_RUN.
  const claimed = `${file}.${process.pid}.answering`;
  try {
    await rename(file, claimed);
  } catch (error) {
    const taken = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const why = taken ? 'another agentcheck resume is answering it' : (error as Error).message;
    return reportError(new ConfigError({ file }, `cannot answer paused run ${runId}: ${why}`), io);
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
  const code = await runAndReport(request, saved.revision, { spans: options.spans, json: options.json, append: true }, io, {
    from: { checkpoint: saved.checkpoint, decision: options.decision },
    workspace: FolderWorkspace.at(resolve(saved.workspace_dir)),
    earlierSpans: saved.spans,
    mockServed: saved.mock_served,
  });
  // Answered (whatever the verdict); a run that could not start (exit 2) keeps its checkpoint.
  if (code === EXIT.invalidInput) {
    await rename(claimed, file).catch((error: Error) => io.stderr.write(`agentcheck: could not put the checkpoint back at ${file}: ${error.message}\n`));
    return code;
  }
  const left = await removeRunCheckpoint(claimed);
  if (left) io.stderr.write(`agentcheck: ${left} (the answered checkpoint: delete it)\n`);
  return code;
}

/**
 * A resume claims a checkpoint by renaming it to `<file>.<pid>.answering`. A claim whose process
 * is still running means another resume is answering the run (refused, naming it); one whose
 * process is gone (killed with SIGKILL mid-run) is taken back, so the run can still be answered.
 */
async function takeBackStaleClaim(file: string): Promise<void> {
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    const match = name.startsWith(prefix) ? /^(\d+)\.answering$/.exec(name.slice(prefix.length)) : null;
    if (!match) continue;
    const pid = Number(match[1]);
    if (isProcessRunning(pid)) throw new ConfigError({ file }, `cannot answer this paused run: another agentcheck resume (pid ${pid}) is answering it`);
    await rename(join(dirname(file), name), file).catch(() => undefined);
  }
}
