import { RunError } from '../config/errors.js';
import { checkpointRefusal } from './checkpoint/checkpoint-fit.js';
import type { Checkpoint } from './checkpoint/checkpointer.js';
import { toolAnswer, type ResumeDecision } from './checkpoint/resume-decision.js';
import type { InvokeOptions } from './invoke.js';
import type { DeltaRevision } from './revision/delta.js';
import type { Revision } from './revision/types.js';
import { runTurn } from './run-turn.js';
import type { Turn } from './turn.js';
import { checkInvokeOptions } from './check-invoke-options.js';
import { withContentCapture } from './content-capture.js';
import { assertRevision } from './revision/assert-revision.js';

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
  // Not a revision is the caller's mistake, said as invoke says it (not a checkpoint of another build).
  assertRevision(revision, 'resume');
  checkInvokeOptions(options, revision.build, { caller: 'resume' });
  assertResumable(revision, checkpoint, decision);
  return runTurn(revision, { kind: 'resume', checkpoint: structuredClone(checkpoint), decision }, withContentCapture(revision, options));
}

/**
 * Throws the RunError resume would throw for this checkpoint and decision (no checkpoint, a
 * damaged one, another build's, nothing pending, a wrong kind of answer), before anything runs:
 * a caller that holds the paused run (resume_run, resumeTestRun) asks first, and keeps the run.
 */
export function assertResumable(revision: Revision | DeltaRevision, checkpoint: Checkpoint, decision?: ResumeDecision): void {
  // pausedRuns.latest() gives undefined for a run that did not pause: said, not a TypeError.
  if (!checkpoint || typeof checkpoint !== 'object' || typeof checkpoint.revisionHash !== 'string') {
    throw new RunError(
      'NO_CHECKPOINT',
      `expected a checkpoint to resume from, got ${checkpoint === undefined ? 'undefined' : typeof checkpoint} (pausedRuns.latest(trace_id) gives undefined when the run did not pause: check turn.stop_reason === 'paused' first)`,
    );
  }
  const refusal = checkpointRefusal(revision, checkpoint, decision !== undefined);
  if (refusal && 'damaged' in refusal) {
    const fields = refusal.damaged.map((problem) => `${problem.path}: ${problem.expected}`).join('; ');
    throw new RunError('CHECKPOINT_INVALID', `checkpoint ${String(checkpoint.id)} cannot be resumed, it is damaged: ${fields}`);
  }
  const misfit = refusal?.misfit;
  if (misfit?.code === 'NOTHING_PENDING') throw new RunError(misfit.code, `${misfit.problem}; resume it without a decision`);
  if (misfit) throw new RunError(misfit.code, `${misfit.problem}; resume it with the revision and delta that ran`);
  if (decision === undefined || !checkpoint.pending) return;
  const waitingComponent = checkpoint.kind === 'flow' ? checkpoint.state.current?.component : undefined;
  const humanInput = revision.build.flow?.components.some((component) => component.name === waitingComponent && component.type === 'human_input');
  // A tool gate only takes approve or deny; fail before anything runs.
  if (!humanInput) toolAnswer(decision, checkpoint.pending.tool);
}
