import {
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Attributes,
  type AttributeValue as ApiAttributeValue,
  type Exception,
  type Link,
  type Span,
  type SpanContext,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import { OwnSpanRecord } from './own-span-record.js';
import type { AttributeValue, SpanRecord } from './span-record.js';

/** Where a span reports its start and end: the span store. */
export interface SpanListener {
  onStart(span: RecordingSpan): void;
  onEnd(span: RecordingSpan): void;
}

type SpanEvent = NonNullable<SpanRecord['events']>[number];

/** A trace's clock, as the SDK's: the wall clock read once, at its root's start, and the monotonic clock then. */
interface AnchoredClock {
  wallMs: number;
  perfMs: number;
}

const KINDS: Record<number, SpanRecord['kind']> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

/**
 * A span of the OpenTelemetry API that records straight into a SpanRecord when it ends (no SDK
 * span in between). Times follow the SDK's anchored clock: a root span starts at the wall clock,
 * and every later time of its trace (its children's starts, every end) adds the monotonic clock's
 * elapsed time to that, so durations never go negative and a child never starts before its parent
 * when the wall clock moves.
 */
export class RecordingSpan implements Span {
  private readonly context: SpanContext;
  private readonly startMs: number;
  private readonly clock: AnchoredClock;
  private readonly attributes: Record<string, AttributeValue> = {};
  private events: SpanEvent[] | undefined;
  private status: SpanStatus = { code: SpanStatusCode.UNSET };
  private endMs: number | undefined;
  /** The links given at start or added later (kept for export only; spans.jsonl has none). */
  links: Link[] | undefined;

  constructor(
    private name: string,
    readonly kind: SpanKind,
    traceId: string,
    spanId: string,
    readonly parentSpanId: string | undefined,
    attributes: Attributes | undefined,
    startTime: TimeInput | undefined,
    private readonly listener: SpanListener,
    /** The span whose clock this one reads (its parent, when one of ours); a root anchors its own. */
    parent?: RecordingSpan,
  ) {
    this.context = { traceId, spanId, traceFlags: TraceFlags.SAMPLED };
    this.clock = parent ? parent.clock : { wallMs: Date.now(), perfMs: performance.now() };
    // A time that is no time (NaN, an invalid Date) is not given: a record's times are finite numbers (docs/spans.md).
    const given = startTime === undefined ? NaN : timeInputMs(startTime);
    if (Number.isFinite(given)) this.startMs = given;
    else this.startMs = parent ? this.nowMs() : this.clock.wallMs;
    if (attributes) this.setAttributes(attributes);
    listener.onStart(this);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: ApiAttributeValue): this {
    // As the SDK does: null/undefined, an empty key and a non-attribute value are ignored.
    if (value == null || this.endMs !== undefined || key.length === 0 || !isAttributeValue(value)) return this;
    this.attributes[key] = value as AttributeValue;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    // One key at a time onto the span's own object: a spread copy of the start attributes was
    // cheaper in the span bench, but a suite of 5,000 runs took 13% longer with it (the engine
    // adds a reply's attributes after the start).
    for (const key in attributes) if (Object.prototype.hasOwnProperty.call(attributes, key)) this.setAttribute(key, attributes[key]!);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.endMs !== undefined) return this;
    const timeGiven = isTimeInput(attributesOrTime);
    const attributes = timeGiven ? undefined : (attributesOrTime as Attributes | undefined);
    const at = time ?? (timeGiven ? (attributesOrTime as TimeInput) : undefined);
    const kept: Record<string, AttributeValue> = {};
    for (const key in attributes) {
      const value = attributes[key];
      if (key.length > 0 && value != null && isAttributeValue(value)) kept[key] = value as AttributeValue;
    }
    (this.events ??= []).push({ name, time_ms: this.givenOrNow(at), attributes: kept });
    return this;
  }

  addLink(link: Link): this {
    if (this.endMs === undefined) (this.links ??= []).push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    // As the SDK does: UNSET changes nothing, OK is final, only ERROR keeps a (string) message.
    if (this.endMs !== undefined || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string' ? { code: status.code, message: status.message } : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (this.endMs === undefined) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.endMs !== undefined) return;
    this.endMs = endTime === undefined ? this.nowMs() : this.givenOrNow(endTime);
    this.listener.onEnd(this);
  }

  isRecording(): boolean {
    return this.endMs === undefined;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      const { code, name, message, stack } = exception as { code?: unknown; name?: string; message?: string; stack?: string };
      attributes['exception.type'] = code !== undefined ? String(code) : name;
      attributes['exception.message'] = message;
      attributes['exception.stacktrace'] = stack;
    }
    this.addEvent('exception', attributes, time);
  }

  /** The span as a record: whole once ended, else a snapshot marked `ended: false`. */
  toRecord(): SpanRecord {
    const ended = this.endMs !== undefined;
    const end = ended ? this.endMs! : this.startMs;
    const record = new OwnSpanRecord(
      this.context.traceId,
      this.context.spanId,
      this.parentSpanId ?? null,
      this.name,
      KINDS[this.kind] ?? 'internal',
      this.status.code === SpanStatusCode.ERROR ? 'error' : this.status.code === SpanStatusCode.OK ? 'ok' : 'unset',
      this.startMs,
      end,
      Math.max(0, end - this.startMs),
      // An ended span's attributes no longer change: the record shares them instead of copying.
      ended ? this.attributes : { ...this.attributes },
      ended,
    );
    if (this.status.message) record.status_message = this.status.message;
    if (this.events) record.events = ended ? this.events : this.events.map((event) => ({ ...event }));
    return record;
  }

  /** `time` in ms since the epoch, or now when none is given or it is no time (NaN, an invalid Date). */
  private givenOrNow(time: TimeInput | undefined): number {
    const given = time === undefined ? NaN : timeInputMs(time);
    return Number.isFinite(given) ? given : this.nowMs();
  }

  private nowMs(): number {
    return this.clock.wallMs + (performance.now() - this.clock.perfMs);
  }
}

/** Milliseconds since the epoch from an API time input (epoch ms, a Date, or [seconds, nanoseconds]). */
function timeInputMs(time: TimeInput): number {
  if (Array.isArray(time)) return time[0] * 1000 + time[1] / 1e6;
  if (time instanceof Date) return time.getTime();
  // A number below the monotonic clock's reading is a performance.now() time, as in the SDK.
  return time <= performance.now() ? performance.timeOrigin + time : time;
}

function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number');
}

/** A string, number or boolean, or an array of one of those types (nulls allowed), as the API defines. */
function isAttributeValue(value: unknown): boolean {
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return true;
  if (!Array.isArray(value)) return false;
  let itemType: string | undefined;
  for (const item of value) {
    if (item == null) continue;
    const t = typeof item;
    if (t !== 'string' && t !== 'number' && t !== 'boolean') return false;
    if (itemType === undefined) itemType = t;
    else if (t !== itemType) return false;
  }
  return true;
}
