import type { AgentBuild } from '../../engine/revision/types.js';
import type { SpanRecord } from '../../spans/span-record.js';
import type { SegmentedRun } from '../resume/run-segments.js';
import { startExternalSpanCollector, type ExternalSpanCollector } from './external-span-collector.js';

/** The OTLP receiver of a run of an external build (docs/external-agents.md, Its own spans); undefined for other builds. */
export async function startRunSpanReceiver(build: AgentBuild): Promise<ExternalSpanCollector | undefined> {
  if (!build.external) return undefined;
  return startExternalSpanCollector({ spansUrl: build.external.http?.spans_url });
}

/**
 * Once the turn is over: waits for the agent's late spans and adds them, joined to the run and
 * scrubbed by `scrub` (as the store scrubs spans that end in it), to the run's last segment, so
 * evidence and checks see them.
 */
export async function addExternalSpans(collector: ExternalSpanCollector, run: SegmentedRun, scrub: (spans: SpanRecord[]) => SpanRecord[], signal?: AbortSignal): Promise<void> {
  const spans = run.spans[run.spans.length - 1];
  if (!spans) return;
  spans.push(...scrub(await collector.collect(spans, run.turn.external?.trace_id, signal)));
}
