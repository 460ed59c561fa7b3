import type { Usage } from '../../engine/model/model.js';
import { ATTR, SPAN } from '../../spans/conventions.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { isInvokeAgent, operationOf } from '../../verdicts/span-kind.js';

const FIELDS = [
  ['input_tokens', ATTR.inputTokens],
  ['output_tokens', ATTR.outputTokens],
  ['cached_input_tokens', ATTR.cachedInputTokens],
  ['reasoning_tokens', ATTR.reasoningTokens],
] as const;

/**
 * Adds the tokens of the model calls an external agent made past the bridge (its own exported
 * `chat` spans, `joined`) to the run's usage and its root's totals, so `max_tokens` and the
 * report count them (docs/external-agents.md, Its own spans). The join already left out the
 * agent's model-call spans when the bridge saw the model calls, so no call is counted twice. A
 * value that is not a whole number of tokens (0 or more) is not counted.
 */
export function addExportedUsage(usage: Usage, runSpans: readonly SpanRecord[], joined: readonly SpanRecord[]): void {
  const chats = joined.filter((span) => operationOf(span) === SPAN.chat);
  if (chats.length === 0) return;
  for (const [field, key] of FIELDS) {
    const counts = chats.map((span) => span.attributes[key]).filter((value): value is number => Number.isSafeInteger(value) && (value as number) >= 0);
    if (counts.length === 0) continue;
    usage[field] = (usage[field] ?? 0) + counts.reduce((sum, value) => sum + value, 0);
  }
  const root = runSpans.find((span) => span.parent_id === null && isInvokeAgent(span));
  if (!root) return;
  const totals = { ...root.attributes };
  for (const [field, key] of FIELDS) if (usage[field] !== undefined) totals[key] = usage[field];
  root.attributes = totals;
}
