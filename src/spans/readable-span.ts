import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RecordingSpan } from './recording-span.js';
import type { SpanRecord } from './span-record.js';

const STATUS: Record<SpanRecord['status'], SpanStatusCode> = { unset: SpanStatusCode.UNSET, ok: SpanStatusCode.OK, error: SpanStatusCode.ERROR };
const SCOPE = { name: 'agentcheck' };
const KINDS: Readonly<Record<string, SpanKind>> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

/**
 * The SDK's view of an ended span, built from its (scrubbed) record, for the OTLP exporters:
 * they read only these fields. Nothing is dropped by limits, so the dropped counts are zero.
 */
export function toReadableSpan(record: SpanRecord, span: RecordingSpan | undefined, resource: ReadableSpan['resource']): ReadableSpan {
  // Without the live span (a run's final records, external spans among them) the record says it all.
  const context = span?.spanContext() ?? { traceId: record.trace_id, spanId: record.span_id, traceFlags: TraceFlags.SAMPLED };
  return {
    name: record.name,
    kind: span?.kind ?? KINDS[record.kind] ?? SpanKind.INTERNAL,
    spanContext: () => context,
    parentSpanContext: record.parent_id === null ? undefined : { traceId: record.trace_id, spanId: record.parent_id, traceFlags: TraceFlags.SAMPLED },
    startTime: msToHrTime(record.start_ms),
    endTime: msToHrTime(record.end_ms),
    duration: msToHrTime(record.duration_ms),
    status: record.status_message ? { code: STATUS[record.status], message: record.status_message } : { code: STATUS[record.status] },
    // Record attributes are API attribute values (the span checked them as they were set).
    attributes: record.attributes as Attributes,
    links: span?.links ?? [],
    events: (record.events ?? []).map((event) => ({
      name: event.name,
      time: msToHrTime(event.time_ms),
      attributes: event.attributes as Attributes | undefined,
      droppedAttributesCount: 0,
    })),
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** Milliseconds (fractional) as [seconds, nanoseconds], the SDK's time shape. */
function msToHrTime(ms: number): HrTime {
  let seconds = Math.floor(ms / 1000);
  let nanos = Math.round((ms - seconds * 1000) * 1e6);
  if (nanos >= 1e9) {
    seconds++;
    nanos -= 1e9;
  }
  return [seconds, nanos];
}
