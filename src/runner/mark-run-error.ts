import type { Turn } from '../engine/turn.js';
import { ATTR } from '../spans/conventions.js';
import type { SpanRecord } from '../spans/span-record.js';
import { isInvokeAgent } from '../verdicts/span-kind.js';

/**
 * Ends a run that ran with an error found after it (its time limit, an external agent's spans
 * that could not be read): on the turn and on the root span that reports the run (docs/spans.md),
 * so the spans and the verdict name the same cause. What the run did is kept. `spans` is the run's, joined.
 */
export function markRunError(turn: Turn, spans: SpanRecord[], error: { type: string; message: string }): void {
  turn.stop_reason = 'error';
  turn.error = error;
  const index = spans.findIndex((span) => span.parent_id === null && isInvokeAgent(span));
  if (index === -1) return;
  const root = spans[index];
  spans[index] = { ...root, status: 'error', status_message: error.message, attributes: { ...root.attributes, [ATTR.errorType]: error.type } };
}
