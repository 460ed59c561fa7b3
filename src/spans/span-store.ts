import type { Redactor } from '../config/redactor.js';
import { RecordingSpan, type SpanListener } from './recording-span.js';
import type { SpanRecord } from './span-record.js';

/** Sees every span after the store has recorded (and scrubbed) it: an OTLP exporter. */
export interface SpanRecordSink {
  onEnd(record: SpanRecord, span: RecordingSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * One trace's spans in the order they started: a span while it is open, its record once it ended
 * (in the span's place). Start order is almost always start-time order, so taking a trace rarely
 * sorts: a sort of every trace's few records was a tenth of span recording.
 */
type TraceSpans = Array<RecordingSpan | SpanRecord>;

/**
 * Keeps every span of a trace in memory, as a SpanRecord, until the runner takes them.
 * Open spans are tracked too, so a run collected before its root ended is visibly incomplete.
 */
export class SpanStore implements SpanListener {
  private readonly traces = new Map<string, TraceSpans>();
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

  /**
   * Scrubs a value as its spans are scrubbed (unchanged when not redacting): records that never
   * ended in the store (an external agent's own spans), and the run's output and transcript that
   * checks and judge graders read beside the spans.
   */
  scrub<T>(value: T): T {
    return this.redactor ? this.redactor.value(value) : value;
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
    const { traceId } = span.spanContext();
    const spans = this.traces.get(traceId);
    if (spans) spans.push(span);
    else this.traces.set(traceId, [span]);
  }

  /** Records an ended span (scrubbed when redacting) and hands it to the sinks. */
  onEnd(span: RecordingSpan): void {
    const { traceId } = span.spanContext();
    const record = span.toRecord();
    if (this.redactor) scrubRecord(record, this.redactor);
    const spans = this.traces.get(traceId);
    // Searched from the end: most spans end soon after they start.
    const slot = spans ? spans.lastIndexOf(span) : -1;
    if (slot >= 0) spans![slot] = record;
    // A trace taken before this span ended starts again: its late spans are kept for a later take.
    else if (spans) spans.push(record);
    else this.traces.set(traceId, [record]);
    for (const forward of this.forwards) forward.onEnd(record, span);
  }

  /** The spans of one trace in start order (open ones marked `ended: false`), then forgets them. */
  take(traceId: string): SpanRecord[] {
    const spans = this.traces.get(traceId);
    this.traces.delete(traceId);
    // Nothing else holds the list: its open spans are replaced by their snapshots in place.
    return spans ? this.inStartOrder(spans) : [];
  }

  /** The spans of one trace so far, without forgetting them. */
  peek(traceId: string): SpanRecord[] {
    const spans = this.traces.get(traceId);
    return spans ? this.inStartOrder([...spans]) : [];
  }

  /** Every ended span the store holds, of every trace not yet taken, in start order (querySpans(store)). */
  ended(): SpanRecord[] {
    const records = [...this.traces.values()].flatMap((spans) => spans.filter((slot): slot is SpanRecord => !(slot instanceof RecordingSpan)));
    return records.sort((a, b) => a.start_ms - b.start_ms);
  }

  /**
   * `spans` (in place) with the open spans' snapshots in their places, by start time: a span given
   * an earlier start time than one started before it is sorted into place (stably).
   */
  private inStartOrder(spans: TraceSpans): SpanRecord[] {
    let sorted = true;
    for (let i = 0; i < spans.length; i++) {
      const slot = spans[i];
      if (slot instanceof RecordingSpan) {
        const record = slot.toRecord();
        spans[i] = this.redactor ? this.redactor.value(record) : record;
      }
      if (i > 0 && (spans[i] as SpanRecord).start_ms < (spans[i - 1] as SpanRecord).start_ms) sorted = false;
    }
    const records = spans as SpanRecord[];
    return sorted ? records : records.sort((a, b) => a.start_ms - b.start_ms);
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
  // A for-in loop without writes for unchanged values: this runs for every attribute of every span.
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value === 'string') {
      const scrubbed = redactor.text(value);
      if (scrubbed !== value) attributes[key] = scrubbed;
    } else if (Array.isArray(value)) attributes[key] = value.map((item) => (typeof item === 'string' ? redactor.text(item) : item));
  }
}
