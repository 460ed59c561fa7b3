import { readdir, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { isProcessRunning } from '../files/process-running.js';

/** `<file>.<pid>.answering`: the name a resume gives the checkpoint it answers (docs/cli.md, resume). */
export function claimPath(file: string, pid = process.pid): string {
  return `${file}.${pid}.answering`;
}

/**
 * Refuses a run whose checkpoint a resume has claimed: that resume gave its decision, and the
 * gated tool may have run in the workspace, so answering the run again (maybe otherwise) could
 * repeat the call or report a decision the workspace contradicts. This holds also when the
 * claiming process is gone (killed with SIGKILL): only starting over, or deleting the claim to
 * give the run up, is a way out, and the message names both.
 */
export async function refuseClaimedRun(file: string, runId: string): Promise<void> {
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return; // No folder: readRunCheckpoint says the run is unknown.
  }
  for (const name of names) {
    const match = name.startsWith(prefix) ? /^(\d+)\.answering$/.exec(name.slice(prefix.length)) : null;
    if (!match) continue;
    const claim = join(dirname(file), name);
    const pid = Number(match[1]);
    // A live pid is most likely that resume still at work (its result is the run's answer); it may
    // also be another process after pid reuse or on another machine, so the way out is named too.
    const answered = 'its decision was given and the gated tool may have run in the workspace, so the run is answered once';
    const message = isProcessRunning(pid)
      ? `another agentcheck resume (pid ${pid}) is answering it; ${answered}: wait for that resume's result (if no such resume is running, the pid is another process's: start over with agentcheck test-run, and delete ${claim} to give up on this run)`
      : `the agentcheck resume (pid ${pid}) that answered it was stopped before it finished; ${answered}: start over with agentcheck test-run (delete ${claim} to give up on this run)`;
    throw new ConfigError({ file: claim }, `cannot answer paused run ${runId}: ${message}`);
  }
}

/**
 * Claims the checkpoint by renaming it to its claim (atomic): a second resume of the same run_id
 * started meanwhile finds no checkpoint, as a second MCP resume_run gets UNKNOWN_RUN. Returns the claim.
 */
export async function claimCheckpoint(file: string, runId: string): Promise<string> {
  const claimed = claimPath(file);
  try {
    await rename(file, claimed);
  } catch (error) {
    const taken = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const why = taken ? 'another agentcheck resume is answering it' : (error as Error).message;
    throw new ConfigError({ file }, `cannot answer paused run ${runId}: ${why}`);
  }
  return claimed;
}
