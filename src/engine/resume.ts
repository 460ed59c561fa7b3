import { RunError } from '../config/errors.js';
import { checkpointShapeProblems } from './checkpoint/checkpoint-shape.js';
import type { Checkpoint } from './checkpoint/checkpointer.js';
import { toolAnswer, type ResumeDecision } from './checkpoint/resume-decision.js';
import type { InvokeOptions } from './invoke.js';
import type { DeltaRevision } from './revision/delta.js';
import type { Revision } from './revision/types.js';
import { runTurn } from './run-turn.js';
import type { Turn } from './turn.js';
import { checkInvokeOptions } from './check-invoke-options.js';

export type { ResumeDecision } from './checkpoint/resume-decision.js';

/**
 * Continues a run from one of its checkpoints (usually the last one of a paused run) as if it
 * had never stopped: `decision` answers the gate or human_input it waits at (approve / deny
 * for a tool; approve / reject / a response text for human_input). The checkpoint is not
 * changed, so resuming twice from it gives the same result. The resumed run is a new trace
 * whose root records the checkpoint id; its turn holds the whole transcript and usage.
 * `options` are invoke's; with `script`, the entries the run already used are skipped.
 * Throws RunError when the checkpoint does not fit the revision or the decision.
 */
export async function resume(
  revision: Revision | DeltaRevision,
  checkpoint: Checkpoint,
  decision?: ResumeDecision,
  options: InvokeOptions = {},
): Promise<Turn> {
  checkInvokeOptions(options, undefined, 'resume');
  assertResumable(revision, checkpoint, decision);
  return runTurn(revision, { kind: 'resume', checkpoint: structuredClone(checkpoint), decision }, options);
}

function assertResumable(revision: Revision | DeltaRevision, checkpoint: Checkpoint, decision?: ResumeDecision): void {
  // pausedRuns.latest() gives undefined for a run that did not pause: said, not a TypeError.
  if (!checkpoint || typeof checkpoint !== 'object' || typeof checkpoint.revisionHash !== 'string') {
    throw new RunError(
      'NO_CHECKPOINT',
      `expected a checkpoint to resume from, got ${checkpoint === undefined ? 'undefined' : typeof checkpoint} (pausedRuns.latest(trace_id) gives undefined when the run did not pause: check turn.stop_reason === 'paused' first)`,
    );
  }
  const damaged = checkpointShapeProblems(checkpoint, revision.build);
  if (damaged.length) {
    const fields = damaged.map((problem) => `${problem.path}: ${problem.expected}`).join('; ');
    throw new RunError('CHECKPOINT_INVALID', `checkpoint ${String(checkpoint.id)} cannot be resumed, it is damaged: ${fields}`);
  }
  const deltaHash = 'deltaHash' in revision ? revision.deltaHash : null;
  if (checkpoint.revisionHash !== revision.hash || checkpoint.deltaHash !== deltaHash) {
    throw new RunError(
      'CHECKPOINT_MISMATCH',
      `checkpoint ${checkpoint.id} was saved by another build (revision ${checkpoint.revisionHash}, delta ${checkpoint.deltaHash}); resume it with the revision and delta that ran`,
    );
  }
  const hasFlow = revision.build.flow !== undefined;
  if ((checkpoint.kind === 'flow') !== hasFlow) {
    throw new RunError(
      'CHECKPOINT_MISMATCH',
      `checkpoint ${checkpoint.id} is a ${checkpoint.kind} checkpoint but the build ${hasFlow ? 'has' : 'has no'} flow`,
    );
  }
  if (decision === undefined) return;
  if (!checkpoint.pending) {
    throw new RunError('NOTHING_PENDING', `checkpoint ${checkpoint.id} is not waiting for an answer; resume it without a decision`);
  }
  const waitingComponent = checkpoint.kind === 'flow' ? checkpoint.state.current?.component : undefined;
  const humanInput = revision.build.flow?.components.some((component) => component.name === waitingComponent && component.type === 'human_input');
  // A tool gate only takes approve or deny; fail before anything runs.
  if (!humanInput) toolAnswer(decision, checkpoint.pending.tool);
}
