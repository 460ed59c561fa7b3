import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Redactor } from '../config/redactor.js';
import type { SpanRecord } from './span-record.js';
import { toSpanRecord } from './to-record.js';

/**
 * A span processor that keeps every span of a trace in memory until the runner takes them.
 * Open spans are tracked too, so a run collected before its root ended is visibly incomplete.
 */
export class SpanStore implements SpanProcessor {
  private readonly open = new Map<string, Map<string, Span>>();
  private readonly done = new Map<string, SpanRecord[]>();
  private readonly forwards: SpanProcessor[] = [];
  private redactor?: Redactor;

  /**
   * Scrubs every span that ends from now on (its name, attributes, status message and events)
   * before it is stored or forwarded to an exporter: spans.jsonl, OTLP and the evidence alike.
   */
  redactWith(redactor: Redactor | undefined): void {
    this.redactor = redactor;
  }

  /** Whether spans are being scrubbed as they end (a suite run set a redactor). */
  get redacting(): boolean {
    return this.redactor !== undefined;
  }

  /** Scrubs records that never ended in the store (an external agent's own spans) as its spans are scrubbed. */
  scrubRecords(records: SpanRecord[]): SpanRecord[] {
    return this.redactor ? this.redactor.value(records) : records;
  }

  /** Adds a processor (an exporter's) that sees every span after the store. */
  addProcessor(processor: SpanProcessor): void {
    this.forwards.push(processor);
  }

  /** Detaches a processor added with addProcessor (an exporter shut down at the end of a run). */
  removeProcessor(processor: SpanProcessor): void {
    const index = this.forwards.indexOf(processor);
    if (index >= 0) this.forwards.splice(index, 1);
  }

  onStart(span: Span, parentContext: Context): void {
    const { traceId, spanId } = span.spanContext();
    let spans = this.open.get(traceId);
    if (!spans) this.open.set(traceId, (spans = new Map()));
    spans.set(spanId, span);
    for (const forward of this.forwards) forward.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const { traceId, spanId } = span.spanContext();
    if (this.redactor) scrubSpan(span, this.redactor);
    this.open.get(traceId)?.delete(spanId);
    let records = this.done.get(traceId);
    if (!records) this.done.set(traceId, (records = []));
    records.push(toSpanRecord(span, true));
    for (const forward of this.forwards) forward.onEnd(span);
  }

  /** The spans of one trace in start order (open ones marked `ended: false`), then forgets them. */
  take(traceId: string): SpanRecord[] {
    const records = this.peek(traceId);
    this.open.delete(traceId);
    this.done.delete(traceId);
    return records;
  }

  /** The spans of one trace so far, without forgetting them. */
  peek(traceId: string): SpanRecord[] {
    const records = [...(this.done.get(traceId) ?? [])];
    for (const span of this.open.get(traceId)?.values() ?? []) {
      const record = toSpanRecord(span as unknown as ReadableSpan, false);
      records.push(this.redactor ? this.redactor.value(record) : record);
    }
    return records.sort((a, b) => a.start_ms - b.start_ms);
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.forwards.map((forward) => forward.forceFlush()));
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.forwards.map((forward) => forward.shutdown()));
  }
}

/** Scrubs an ended span in place; the SDK keeps these plain objects, exporters read them later. */
function scrubSpan(span: ReadableSpan, redactor: Redactor): void {
  const writable = span as { -readonly [K in keyof ReadableSpan]: ReadableSpan[K] };
  writable.name = redactor.text(span.name);
  scrubAttributes(span.attributes as Record<string, unknown>, redactor);
  if (span.status.message) writable.status = { ...span.status, message: redactor.text(span.status.message) };
  for (const event of span.events) if (event.attributes) scrubAttributes(event.attributes as Record<string, unknown>, redactor);
}

function scrubAttributes(attributes: Record<string, unknown>, redactor: Redactor): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'string') attributes[key] = redactor.text(value);
    else if (Array.isArray(value)) attributes[key] = value.map((item) => (typeof item === 'string' ? redactor.text(item) : item));
  }
}
