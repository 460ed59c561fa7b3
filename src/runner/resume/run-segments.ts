import type { Checkpoint } from '../../engine/checkpoint/checkpointer.js';
import { pausedRuns } from '../../engine/checkpoint/paused-runs.js';
import { invokeChecked, type InvokeInput, type InvokeOptions } from '../../engine/invoke.js';
import type { DeltaRevision } from '../../engine/revision/delta.js';
import { resume, type ResumeDecision } from '../../engine/resume.js';
import type { Turn } from '../../engine/turn.js';
import type { SpanRecord } from '../../spans/span-record.js';

/** A pause and the answer it got. */
export interface ResumeRecord {
  tool: string;
  decision: ResumeDecision;
}

/** Where a run starts: its input, or the checkpoint a paused run left and the answer to it. */
export type SegmentStart = { kind: 'fresh'; inputs: InvokeInput } | { kind: 'checkpoint'; checkpoint: Checkpoint; decision: ResumeDecision };

/** A run in one or more segments (one per invoke or resume). */
export interface SegmentedRun {
  /** The last segment's turn: its messages and usage are the whole run's. */
  turn: Turn;
  /** Each segment's spans, in order. */
  spans: SpanRecord[][];
  /** The pauses answered on the way, in order (the start's own answer first). */
  resumes: ResumeRecord[];
  /** Where the last segment paused, when it did: what a later resume continues from. */
  checkpoint?: Checkpoint;
}

/**
 * Runs from the start given, then answers each pause with the next of `answers` by resuming from
 * the checkpoint the pause left (the engine's resume, not a re-run), until the run ends, errors
 * or pauses with no answer left. `take` collects a finished segment's spans by trace id.
 */
export async function runSegments(
  revision: DeltaRevision,
  start: SegmentStart,
  answers: readonly ResumeDecision[],
  options: InvokeOptions,
  take: (traceId: string) => SpanRecord[],
): Promise<SegmentedRun> {
  const resumes: ResumeRecord[] = [];
  let turn: Turn;
  if (start.kind === 'fresh') {
    // The request was held to invoke's rules when it was checked (testRun, a scenario at load).
    turn = await invokeChecked(revision, start.inputs, options);
  } else {
    resumes.push({ tool: start.checkpoint.pending?.tool ?? '', decision: start.decision });
    turn = await resume(revision, start.checkpoint, start.decision, options);
  }
  const spans = [take(turn.trace_id)];
  let checkpoint = await pausedCheckpoint(turn);
  for (const decision of answers) {
    if (!checkpoint || options.signal?.aborted) break;
    resumes.push({ tool: checkpoint.pending?.tool ?? '', decision });
    turn = await resume(revision, checkpoint, decision, options);
    spans.push(take(turn.trace_id));
    checkpoint = await pausedCheckpoint(turn);
  }
  const run: SegmentedRun = { turn, spans, resumes };
  if (checkpoint) run.checkpoint = checkpoint;
  return run;
}

/** The checkpoint a paused turn left (the engine keeps every pause in `pausedRuns`). */
async function pausedCheckpoint(turn: Turn): Promise<Checkpoint | undefined> {
  if (turn.stop_reason !== 'paused') return undefined;
  return pausedRuns.latest(turn.trace_id);
}
