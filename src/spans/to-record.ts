import { SpanKind, SpanStatusCode, type HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { AttributeValue, SpanRecord } from './span-record.js';

const KINDS: Record<number, SpanRecord['kind']> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

/** Converts an SDK span to its plain record; `ended` is false for spans still open. */
export function toSpanRecord(span: ReadableSpan, ended = span.ended): SpanRecord {
  const context = span.spanContext();
  const start = hrToMs(span.startTime);
  const end = ended ? hrToMs(span.endTime) : start;
  const record: SpanRecord = {
    trace_id: context.traceId,
    span_id: context.spanId,
    parent_id: span.parentSpanContext?.spanId ?? null,
    name: span.name,
    kind: KINDS[span.kind] ?? 'internal',
    status: span.status.code === SpanStatusCode.ERROR ? 'error' : span.status.code === SpanStatusCode.OK ? 'ok' : 'unset',
    start_ms: start,
    end_ms: end,
    duration_ms: Math.max(0, end - start),
    // An ended span's attributes no longer change: the record shares them instead of copying.
    attributes: ended ? (span.attributes as Record<string, AttributeValue>) : { ...(span.attributes as Record<string, AttributeValue>) },
    ended,
  };
  if (span.status.message) record.status_message = span.status.message;
  if (span.events.length) {
    record.events = span.events.map((event) => ({
      name: event.name,
      time_ms: hrToMs(event.time),
      attributes: event.attributes as Record<string, AttributeValue> | undefined,
    }));
  }
  return record;
}

function hrToMs(time: HrTime): number {
  return time[0] * 1000 + time[1] / 1e6;
}
