import type { Checkpoint } from '../../engine/checkpoint/checkpointer.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import type { Workspace } from '../../engine/workspace/workspace.js';
import type { TestRunRequest, TestRunResult } from '../test-run.js';

/** Paused runs the server keeps when no limit is given. */
export const DEFAULT_KEPT_PAUSED_RUNS = 50;

/** What `resume_run` needs to continue a run `test_run` left paused. */
export interface PausedRun {
  revision: DeltaRevision;
  /** The request the run was made with (script, mocks, approvals, expectations, ...). */
  request: TestRunRequest;
  checkpoint: Checkpoint;
  /** The run's workspace as the pause left it; its resumes keep working in it. */
  workspace: Workspace;
  /** The approval decisions made before the pause, carried into the resumed result. */
  decisions: TestRunResult['approvals'];
}

/**
 * The paused runs of an `agentcheck mcp` server, by run_id. Bounded: beyond `maxRuns` the oldest
 * is forgotten and its workspace removed, so a client that never answers does not fill the disk.
 */
export class PausedRunStore {
  private readonly runs = new Map<string, PausedRun>();

  constructor(readonly maxRuns = DEFAULT_KEPT_PAUSED_RUNS) {}

  /** Keeps a paused run under its run_id. */
  async add(runId: string, run: PausedRun): Promise<void> {
    this.runs.set(runId, run);
    while (this.runs.size > this.maxRuns) {
      const oldest = this.runs.keys().next().value as string;
      const forgotten = this.runs.get(oldest);
      this.runs.delete(oldest);
      await forgotten?.workspace.dispose().catch(() => undefined);
    }
  }

  /** Removes and returns a paused run: a pause is answered once. */
  take(runId: string): PausedRun | undefined {
    const run = this.runs.get(runId);
    this.runs.delete(runId);
    return run;
  }

  /** Removes every kept workspace (the server is closing). */
  async disposeAll(): Promise<void> {
    const runs = [...this.runs.values()];
    this.runs.clear();
    await Promise.all(runs.map((run) => run.workspace.dispose().catch(() => undefined)));
  }
}
