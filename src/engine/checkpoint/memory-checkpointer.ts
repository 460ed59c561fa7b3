import type { Checkpoint, Checkpointer } from './checkpointer.js';

/** Keeps checkpoints in memory, per run; the default when a caller asks for checkpoints. */
export class MemoryCheckpointer implements Checkpointer {
  private readonly runs = new Map<string, Checkpoint[]>();

  /** `maxRuns` bounds memory: past it, the run saved longest ago is forgotten. */
  constructor(private readonly maxRuns = Infinity) {}

  save(checkpoint: Checkpoint): void {
    let saved = this.runs.get(checkpoint.traceId);
    if (!saved) {
      this.runs.set(checkpoint.traceId, (saved = []));
      if (this.runs.size > this.maxRuns) this.runs.delete(this.runs.keys().next().value as string);
    }
    saved.push(structuredClone(checkpoint));
  }

  async list(traceId: string): Promise<Checkpoint[]> {
    return structuredClone(this.runs.get(traceId) ?? []);
  }

  async latest(traceId: string): Promise<Checkpoint | undefined> {
    const saved = this.runs.get(traceId);
    return saved?.length ? structuredClone(saved[saved.length - 1]) : undefined;
  }

  /**
   * The checkpoint where run `traceId` waits for interaction `interactionId` (a turn's
   * `pending_interaction.id`), or undefined. Both keys are needed: interaction ids come from
   * call ids, which repeat across runs (`call_1`), so an id alone could name another run's pause.
   */
  async paused(traceId: string, interactionId: string): Promise<Checkpoint | undefined> {
    const found = (this.runs.get(traceId) ?? []).findLast((checkpoint) => checkpoint.pending?.id === interactionId);
    return found ? structuredClone(found) : undefined;
  }

  /** Forgets a run's checkpoints (long suites keep memory flat). */
  forget(traceId: string): void {
    this.runs.delete(traceId);
  }
}
