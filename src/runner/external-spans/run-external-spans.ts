import { RunError } from '../../config/errors.js';
import { ATTR } from '../../spans/conventions.js';
import { envHeaders } from '../../engine/external/http-engine.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { markRunError } from '../mark-run-error.js';
import type { SegmentedRun } from '../resume/run-segments.js';
import { addExportedUsage } from './exported-usage.js';
import { startExternalSpanCollector, type ExternalSpanCollector } from './external-span-collector.js';

/**
 * The OTLP receiver of a run of an external build (docs/external-agents.md, Its own spans);
 * undefined for other builds. A spans URL is read with the http engine's headers, filled when it
 * is read: a header that cannot be filled errors the turn first (TEMPLATE_UNDEFINED), not the run.
 */
export async function startRunSpanReceiver(build: AgentBuild, env: Readonly<Record<string, string | undefined>>): Promise<ExternalSpanCollector | undefined> {
  const http = build.external?.http;
  if (!build.external) return undefined;
  if (!http?.spans_url) return startExternalSpanCollector();
  return startExternalSpanCollector({ spansUrl: http.spans_url, headers: () => envHeaders(http.headers ?? {}, env) });
}

/**
 * Once the turn is over: waits for the agent's late spans and adds them, joined to the run and
 * scrubbed by `scrub` (as the store scrubs spans that end in it), to the run's last segment in
 * start order, so evidence and checks see them; the tokens of its own model calls join the run's usage.
 */
export async function addExternalSpans(
  collector: ExternalSpanCollector,
  run: SegmentedRun,
  scrub: (spans: SpanRecord[]) => SpanRecord[],
  signal?: AbortSignal,
): Promise<void> {
  const spans = run.spans[run.spans.length - 1];
  if (!spans) return;
  let collected: SpanRecord[];
  try {
    collected = await collector.collect(spans, run.turn.external?.trace_id, signal);
  } catch (error) {
    // The agent ran and answered: its spans_url failing errors the run, keeping what it did
    // (docs/external-agents.md), rather than losing the run's transcript and spans.
    if (!(error instanceof RunError) || error.code !== 'SPANS_URL_FAILED') throw error;
    // An agent that did not answer (down, failed) has its own error, which says why; the spans it
    // could not point to are only a consequence.
    if (!run.turn.error) markRunError(run.turn, spans, { type: error.code, message: error.message });
    return;
  }
  const joined = scrub(collected);
  spans.push(...joined);
  // A run's spans are in start order (docs/spans.md): the agent's own root began before the
  // bridge's first chat. The sort is stable, so spans of one instant keep their order.
  spans.sort((a, b) => a.start_ms - b.start_ms);
  addExportedUsage(run.turn.usage, spans, joined);
  // Spans the agent sent that were refused are evidence lost: the run errors, as for a spans URL
  // whose export is malformed, rather than pass on what is left (docs/external-agents.md).
  const refused = collector.refusedExports();
  if (refused.length && !run.turn.error) markRunError(run.turn, spans, { type: 'OTLP_EXPORT_REFUSED', message: refusedMessage(refused) });
}

/** What the run's error says of its refused exports: how many, and the first one's reason. */
function refusedMessage(refused: readonly string[]): string {
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more, listed on the root span as ${ATTR.externalRejected})` : '';
  const count = refused.length === 1 ? 'an export' : `${refused.length} exports`;
  return `the run's OTLP receiver refused ${count} of the agent's spans, which are not evidence: HTTP ${refused[0]}${more}`;
}
