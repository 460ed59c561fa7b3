import type { Checkpoint } from '../../engine/checkpoint/checkpointer.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import { FolderWorkspace } from '../../engine/workspace/folder-workspace.js';
import type { Workspace } from '../../engine/workspace/workspace.js';
import type { SpanRecord } from '../../spans/span-record.js';
import type { TestRunRecord, TestRunRequest, TestRunResult } from '../test-run.js';

/** Paused runs a store keeps when no limit is given. */
export const DEFAULT_KEPT_PAUSED_RUNS = 50;

/** What a resume (`resume_run`, `resumeTestRun`) needs to continue a run that paused. */
export interface PausedRun {
  revision: DeltaRevision;
  /** The request the run was made with (script, mocks, approvals, expectations, ...). */
  request: TestRunRequest;
  checkpoint: Checkpoint;
  /** The run's workspace as the pause left it; its resumes keep working in it. */
  workspace: Workspace;
  /** The run's spans so far (every segment, joined): its resume is scored as the whole run. */
  spans: SpanRecord[];
  /** Where its mocks' `responses` sequences stood (TestRunRecord.mockServed). */
  mockServed: Record<string, number>;
}

/**
 * Paused runs by run_id (an `agentcheck mcp` server's, or the library's in this process). Bounded:
 * beyond `maxRuns` the oldest is forgotten and its workspace removed, so a caller that never
 * answers does not fill the disk.
 */
export class PausedRunStore {
  private readonly runs = new Map<string, PausedRun>();
  private exitHook?: () => void;

  /** `removeAtExit`: the kept workspaces go when the process exits (a library caller has no close). */
  constructor(
    readonly maxRuns = DEFAULT_KEPT_PAUSED_RUNS,
    private readonly removeAtExit = false,
  ) {}

  /** Keeps a paused run under its run_id. */
  async add(runId: string, run: PausedRun): Promise<void> {
    this.runs.set(runId, run);
    if (this.removeAtExit && !this.exitHook) {
      this.exitHook = () => this.disposeAllSync();
      process.once('exit', this.exitHook);
    }
    while (this.runs.size > this.maxRuns) {
      const oldest = this.runs.keys().next().value as string;
      const forgotten = this.runs.get(oldest);
      this.runs.delete(oldest);
      await forgotten?.workspace.dispose().catch(() => undefined);
    }
  }

  /**
   * After a run: a paused one is kept under its run_id with its workspace; any other run's
   * workspace is removed. Returns the run's result.
   */
  async settle(record: TestRunRecord, request: TestRunRequest): Promise<TestRunResult> {
    if (record.checkpoint && record.result.run_id) {
      await this.add(record.result.run_id, {
        revision: record.revision,
        request,
        checkpoint: record.checkpoint,
        workspace: record.workspace,
        spans: record.runSpans,
        mockServed: record.mockServed,
      });
    } else {
      await record.workspace.dispose().catch(() => undefined);
    }
    return record.result;
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

  private disposeAllSync(): void {
    for (const run of this.runs.values()) if (run.workspace instanceof FolderWorkspace) run.workspace.disposeSync();
    this.runs.clear();
  }
}

/** The paused runs of the library's testRun in this process, for resumeTestRun. */
export const libraryPausedRuns = new PausedRunStore(DEFAULT_KEPT_PAUSED_RUNS, true);
