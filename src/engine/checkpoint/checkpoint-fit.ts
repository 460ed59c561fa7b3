import { withArticle } from '../../config/indefinite-article.js';
import type { DeltaRevision } from '../revision/delta.js';
import type { Revision } from '../revision/types.js';
import type { Checkpoint } from './checkpointer.js';
import { checkpointCommonProblems, checkpointShapeProblems, type CheckpointProblem } from './checkpoint-shape.js';

/** Why a sound checkpoint cannot continue with a revision (or be answered), and which field says so. */
export interface CheckpointMisfit {
  code: 'CHECKPOINT_MISMATCH' | 'NOTHING_PENDING';
  /** The checkpoint's field that does not fit (`revisionHash`, `kind`, `pending`). */
  path: string;
  /** What is wrong, without advice: the engine and `agentcheck resume` each add their own. */
  problem: string;
}

/**
 * Whether `checkpoint` (its common fields sound: checkpointCommonProblems) fits `revision`: saved by the
 * same revision and delta, a flow checkpoint exactly when the build has a flow, and, when it is
 * to be answered, waiting at a gate. One place for the engine's resume and the CLI's check of its
 * checkpoint file (docs/workflows.md, Checkpoints), so both refuse the same checkpoints.
 */
export function checkpointMisfit(revision: Revision | DeltaRevision, checkpoint: Checkpoint, answered: boolean): CheckpointMisfit | undefined {
  const deltaHash = 'deltaHash' in revision ? revision.deltaHash : null;
  if (checkpoint.revisionHash !== revision.hash || checkpoint.deltaHash !== deltaHash) {
    return {
      code: 'CHECKPOINT_MISMATCH',
      path: checkpoint.revisionHash !== revision.hash ? 'revisionHash' : 'deltaHash',
      problem: `checkpoint ${checkpoint.id} was saved by another build (revision ${checkpoint.revisionHash}, delta ${checkpoint.deltaHash})`,
    };
  }
  const hasFlow = revision.build.flow !== undefined;
  if ((checkpoint.kind === 'flow') !== hasFlow) {
    return {
      code: 'CHECKPOINT_MISMATCH',
      path: 'kind',
      problem: `checkpoint ${checkpoint.id} is ${withArticle(checkpoint.kind)} checkpoint but the build ${hasFlow ? 'has a' : 'has no'} flow`,
    };
  }
  if (answered && !checkpoint.pending) {
    return { code: 'NOTHING_PENDING', path: 'pending', problem: `checkpoint ${checkpoint.id} is not waiting for an answer` };
  }
  return undefined;
}

/** Why a checkpoint cannot be resumed with a revision: a damaged field (each named) or a misfit. */
export type CheckpointRefusal = { damaged: CheckpointProblem[] } | { misfit: CheckpointMisfit };

/**
 * Whether `checkpoint` can continue with `revision` (answered or not), in the order that names
 * the cause: its build-independent shape first (the fields the next check reads), then whether
 * it is this revision and delta's (`CHECKPOINT_MISMATCH`), and only then its state held to the
 * build (a flow's component names), which a checkpoint of another build could never fit and
 * would be called damaged. One place for the engine's resume and `agentcheck resume`'s file.
 */
export function checkpointRefusal(revision: Revision | DeltaRevision, checkpoint: unknown, answered: boolean): CheckpointRefusal | undefined {
  const common = checkpointCommonProblems(checkpoint);
  if (common.length) return { damaged: common };
  const sound = checkpoint as Checkpoint;
  const another = checkpointMisfit(revision, sound, false);
  if (another) return { misfit: another };
  const damaged = checkpointShapeProblems(checkpoint, revision.build);
  if (damaged.length) return { damaged };
  const misfit = checkpointMisfit(revision, sound, answered);
  return misfit ? { misfit } : undefined;
}
