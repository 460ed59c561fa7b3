import { withArticle } from '../../config/indefinite-article.js';
import type { DeltaRevision } from '../revision/delta.js';
import type { Revision } from '../revision/types.js';
import type { Checkpoint } from './checkpointer.js';

/** Why a sound checkpoint cannot continue with a revision (or be answered), and which field says so. */
export interface CheckpointMisfit {
  code: 'CHECKPOINT_MISMATCH' | 'NOTHING_PENDING';
  /** The checkpoint's field that does not fit (`revisionHash`, `kind`, `pending`). */
  path: string;
  /** What is wrong, without advice: the engine and `agentcheck resume` each add their own. */
  problem: string;
}

/**
 * Whether `checkpoint` (of a sound shape: checkpointShapeProblems) fits `revision`: saved by the
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
