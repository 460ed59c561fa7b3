import { ATTR } from '../../spans/conventions.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../spans/otlp-receiver.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { isInvokeAgent } from '../../verdicts/span-kind.js';
import { joinExternalSpans } from './join-external-spans.js';
import { readSpansUrl } from './read-spans-url.js';

/**
 * How long to wait for late spans after the turn (docs/external-agents.md, Its own spans): until
 * no export is being received and none arrived for LATE_SPANS_QUIET_MS, at most LATE_SPANS_MAX_MS.
 * An agent that flushes its exporter before it exits or answers never needs the wait.
 */
export const LATE_SPANS_QUIET_MS = 250;
export const LATE_SPANS_MAX_MS = 5_000;

/** Where an external agent's spans come from besides the receiver. */
export interface ExternalSpanSources {
  /** `external.http.spans_url`, with its `{trace_id}` placeholder. */
  spansUrl?: string;
  /** Headers for the spans URL (the http engine's own), filled when it is read. */
  headers?: () => Record<string, string>;
}

/** One run's receiver for an external agent's spans. */
export interface ExternalSpanCollector {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (InvokeOptions.otlpEndpoint). */
  readonly endpoint: string;
  /**
   * After the turn: waits for late spans, reads the spans URL, and returns the agent's spans
   * joined to `runSpans` (mapped, re-traced, each call once). Exports the receiver refused are
   * recorded on the run's root (agentcheck.external.rejected).
   */
  collect(runSpans: readonly SpanRecord[], remoteTraceId?: string, signal?: AbortSignal): Promise<SpanRecord[]>;
  /** Waits for late spans, as collect() does: before anything the agent started is ended (its server, its leftover processes). */
  settle(): Promise<void>;
  /** The trace exports the receiver refused (`400 ...`): spans the agent sent that are not evidence. */
  refusedExports(): readonly string[];
  close(): Promise<void>;
}

/** Starts the receiver of one run (or uses the one given); close() closes it. */
export async function startExternalSpanCollector(sources: ExternalSpanSources = {}, started?: OtlpReceiver): Promise<ExternalSpanCollector> {
  const receiver = started ?? (await startOtlpReceiver());
  // A wait that ended quiet is not waited again while no request has come since: collect()
  // after the wait before the agent's leftovers were ended (beforeExternalStop) returns at once.
  let quietAt: number | undefined;
  const settle = async (): Promise<void> => {
    if (quietAt === receiver.requests) return;
    const quiet = await receiver.whenQuiet({ quietMs: LATE_SPANS_QUIET_MS, maxMs: LATE_SPANS_MAX_MS });
    quietAt = quiet ? receiver.requests : undefined;
  };
  return {
    endpoint: receiver.endpoint,
    settle,
    refusedExports: () => [...receiver.refusedExports],
    async collect(runSpans, remoteTraceId, signal) {
      // A run cut short (timeout, interrupt) takes what has arrived.
      if (!signal?.aborted) await settle();
      const received = receiver.spans().map((span) => span.record);
      if (sources.spansUrl) received.push(...(await readSpansUrl(sources.spansUrl, remoteTraceId, sources.headers, signal)));
      const root = runSpans.find((span) => span.parent_id === null && isInvokeAgent(span));
      if (root && receiver.rejected.length) root.attributes = { ...root.attributes, [ATTR.externalRejected]: [...receiver.rejected] };
      return joinExternalSpans(received, runSpans).spans;
    },
    close: () => receiver.close(),
  };
}
