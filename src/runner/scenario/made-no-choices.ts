import { SPAN } from '../../spans/conventions.js';
import type { Evidence } from '../../verdicts/index.js';
import { operationOf } from '../../verdicts/span-kind.js';

/**
 * True when the run ended with an error before the model answered and before any tool was called
 * (its MCP servers did not start, a scripted model had no script, the first model call failed):
 * it made no choices, so the statistics do not score its tool selection, turns or tokens
 * (docs/statistics.md). A model call that failed (its `chat` span has status `error` or never
 * ended) is no answer; one that answered is a choice even when it called no tool.
 */
export function madeNoChoices(stopReason: string, evidence: Pick<Evidence, 'calls' | 'spans'>): boolean {
  if (stopReason !== 'error' || evidence.calls.length > 0) return false;
  return !evidence.spans.some((span) => operationOf(span) === SPAN.chat && span.ended && span.status !== 'error');
}
