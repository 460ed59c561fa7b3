import type { FlowRunState } from '../flow/flow-state.js';
import type { LoopState } from '../loop/agent-loop.js';
import type { PendingInteraction } from '../turn.js';
import type { Checkpointer } from './checkpointer.js';
import { pausedRuns } from './paused-runs.js';

/** Identifies the run whose checkpoints a writer saves. */
export interface CheckpointRun {
  traceId: string;
  revisionHash: string;
  deltaHash: string | null;
}

/** Numbers and saves one run's checkpoints; without a checkpointer it does nothing. */
export class CheckpointWriter {
  private seq = 0;

  constructor(
    private readonly checkpointer: Checkpointer | undefined,
    private readonly run: CheckpointRun,
  ) {}

  /** Whether anything is saved: without a checkpointer, callers can skip producing states. */
  get active(): boolean {
    return this.checkpointer !== undefined;
  }

  /** A plain agent run's state after a tool round, or where it paused. */
  async agent(state: LoopState, pending?: PendingInteraction): Promise<void> {
    const target = this.target(pending);
    if (!target) return;
    await target.save({ ...this.base(state.turns, pending), kind: 'agent', state: structuredClone(state) });
  }

  /** A flow run's state after a component or an agent component's tool round, or where it paused. */
  async flow(run: FlowRunState): Promise<void> {
    const pending = run.current?.pending;
    const target = this.target(pending);
    if (!target) return;
    const modelCalls = run.modelCalls + (run.current?.loop?.turns ?? 0);
    await target.save({ ...this.base(modelCalls, pending), kind: 'flow', state: structuredClone(run) });
  }

  /** The caller's checkpointer; without one, a pause still goes to `pausedRuns` so it can be resumed. */
  private target(pending: PendingInteraction | undefined): Checkpointer | undefined {
    return this.checkpointer ?? (pending ? pausedRuns : undefined);
  }

  private base(modelCalls: number, pending?: PendingInteraction) {
    const seq = ++this.seq;
    const base = {
      id: `${this.run.traceId}:${seq}`,
      traceId: this.run.traceId,
      seq,
      revisionHash: this.run.revisionHash,
      deltaHash: this.run.deltaHash,
      modelCalls,
    };
    return pending ? { ...base, pending: structuredClone(pending) } : base;
  }
}
