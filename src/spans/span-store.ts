import type { Redactor } from '../config/redactor.js';
import type { RecordingSpan, SpanListener } from './recording-span.js';
import type { SpanRecord } from './span-record.js';

/** Sees every span after the store has recorded (and scrubbed) it: an OTLP exporter. */
export interface SpanRecordSink {
  onEnd(record: SpanRecord, span: RecordingSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Keeps every span of a trace in memory, as a SpanRecord, until the runner takes them.
 * Open spans are tracked too, so a run collected before its root ended is visibly incomplete.
 */
export class SpanStore implements SpanListener {
  private readonly open = new Map<string, Map<string, RecordingSpan>>();
  private readonly done = new Map<string, SpanRecord[]>();
  private readonly forwards: SpanRecordSink[] = [];
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

  /** Adds a sink (an exporter's) that sees every span record after the store. */
  addProcessor(processor: SpanRecordSink): void {
    this.forwards.push(processor);
  }

  /** Detaches a sink added with addProcessor (an exporter shut down at the end of a run). */
  removeProcessor(processor: SpanRecordSink): void {
    const index = this.forwards.indexOf(processor);
    if (index >= 0) this.forwards.splice(index, 1);
  }

  /** Tracks a span that has started, so a collection before its end shows it open. */
  onStart(span: RecordingSpan): void {
    const { traceId, spanId } = span.spanContext();
    let spans = this.open.get(traceId);
    if (!spans) this.open.set(traceId, (spans = new Map()));
    spans.set(spanId, span);
  }

  /** Records an ended span (scrubbed when redacting) and hands it to the sinks. */
  onEnd(span: RecordingSpan): void {
    const { traceId, spanId } = span.spanContext();
    const record = span.toRecord();
    if (this.redactor) scrubRecord(record, this.redactor);
    this.open.get(traceId)?.delete(spanId);
    let records = this.done.get(traceId);
    if (!records) this.done.set(traceId, (records = []));
    records.push(record);
    for (const forward of this.forwards) forward.onEnd(record, span);
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
      const record = span.toRecord();
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

/** Scrubs an ended span's record in place; the record owns its attributes and events now. */
function scrubRecord(record: SpanRecord, redactor: Redactor): void {
  record.name = redactor.text(record.name);
  scrubAttributes(record.attributes, redactor);
  if (record.status_message) record.status_message = redactor.text(record.status_message);
  for (const event of record.events ?? []) if (event.attributes) scrubAttributes(event.attributes, redactor);
}

function scrubAttributes(attributes: Record<string, unknown>, redactor: Redactor): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'string') attributes[key] = redactor.text(value);
    else if (Array.isArray(value)) attributes[key] = value.map((item) => (typeof item === 'string' ? redactor.text(item) : item));
  }
}
