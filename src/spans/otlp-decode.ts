import { setOwn } from '../config/own-key.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import type { OtlpAnyValue, OtlpAttribute, OtlpSpan } from './otlp-trace-request.js';
import type { AttributeValue, SpanRecord } from './span-record.js';
import { describeValue } from '../config/describe-value.js';

/** The span records of an OTLP trace export, with the resource and scope each span came from. */
export interface DecodedSpan {
  record: SpanRecord;
  /** The exporting scope (instrumentation library), e.g. `ai` for the Vercel AI SDK. */
  scope: string | null;
  /** The resource's `service.name`, when set. */
  service: string | null;
  /** Where the span was in its export (`resourceSpans[0].scopeSpans[0].spans[3]`), for errors. */
  path: string;
}

const KINDS: readonly SpanRecord['kind'][] = ['internal', 'internal', 'server', 'client', 'producer', 'consumer'];
/** The OTLP enums by number, in order: the JSON encoding sends numbers, protobuf's JSON mapping may send the names. */
const SPAN_KINDS = ['SPAN_KIND_UNSPECIFIED', 'SPAN_KIND_INTERNAL', 'SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT', 'SPAN_KIND_PRODUCER', 'SPAN_KIND_CONSUMER'];
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TRACE_ID = /^[0-9a-f]{32}$/i;
const SPAN_ID = /^[0-9a-f]{16}$/i;
const ZERO = /^0+$/;

/**
 * Reads a decoded OTLP trace export (the JSON encoding's shape, parsed JSON or the protobuf
 * decoder's output) into span records. Throws OtlpDecodeError, with the JSON path, for a body
 * that is not an export request, a span without valid ids (all zeros is invalid), or two spans
 * with the same ids.
 */
export function decodeTraceRequest(body: unknown): DecodedSpan[] {
  if (!isObject(body)) throw new OtlpDecodeError('the body is not an ExportTraceServiceRequest object');
  const out: DecodedSpan[] = [];
  // Where each span id was first seen: a second span with the same ids in one export is refused.
  const seen = new Map<string, string>();
  arrayAt(body.resourceSpans, 'resourceSpans').forEach((rs, r) => {
    const rsPath = `resourceSpans[${r}]`;
    if (!isObject(rs)) throw new OtlpDecodeError('expected an object', rsPath);
    const resource = isObject(rs.resource) ? attributesOf(rs.resource.attributes, `${rsPath}.resource.attributes`) : {};
    const service = typeof resource['service.name'] === 'string' ? resource['service.name'] : null;
    arrayAt(rs.scopeSpans, `${rsPath}.scopeSpans`).forEach((ss, s) => {
      const ssPath = `${rsPath}.scopeSpans[${s}]`;
      if (!isObject(ss)) throw new OtlpDecodeError('expected an object', ssPath);
      const scope = isObject(ss.scope) && typeof ss.scope.name === 'string' ? ss.scope.name : null;
      arrayAt(ss.spans, `${ssPath}.spans`).forEach((span, i) => {
        const path = `${ssPath}.spans[${i}]`;
        const record = spanRecord(span, path);
        const key = `${record.trace_id}:${record.span_id}`;
        const first = seen.get(key);
        if (first !== undefined)
          throw new OtlpDecodeError(`span id ${record.span_id} is also the id of ${first} in this trace: each span needs its own id`, `${path}.spanId`);
        seen.set(key, path);
        out.push({ record, scope, service, path });
      });
    });
  });
  return out;
}

function spanRecord(value: unknown, path: string): SpanRecord {
  if (!isObject(value)) throw new OtlpDecodeError('expected a span object', path);
  const span = value as Partial<OtlpSpan>;
  const traceId = nonZero(idAt(span.traceId, TRACE_ID, `${path}.traceId`, 'a trace id of 32 hex digits'), `${path}.traceId`, 'a trace id');
  const spanId = nonZero(idAt(span.spanId, SPAN_ID, `${path}.spanId`, 'a span id of 16 hex digits'), `${path}.spanId`, 'a span id');
  const parent =
    span.parentSpanId === undefined || span.parentSpanId === ''
      ? null
      : idAt(span.parentSpanId, SPAN_ID, `${path}.parentSpanId`, 'a span id of 16 hex digits (or empty for a root)');
  // Both times are required (OTLP): a span without one would be filed at 1970, first in every order.
  const start = requiredNanosToMs(span.startTimeUnixNano, `${path}.startTimeUnixNano`, 'start');
  const end = requiredNanosToMs(span.endTimeUnixNano, `${path}.endTimeUnixNano`, 'end');
  if (typeof span.name !== 'string' || !span.name)
    throw new OtlpDecodeError(`expected the span's name, a non-empty string, got ${describeValue(span.name)}`, `${path}.name`);
  if (span.status !== undefined && span.status !== null && !isObject(span.status))
    throw new OtlpDecodeError(`expected a Status object, got ${describeValue(span.status)}`, `${path}.status`);
  const status = (span.status ?? {}) as Record<string, unknown>;
  const code = enumAt(status.code, STATUS_CODES, `${path}.status.code`, 'a StatusCode');
  const record: SpanRecord = {
    trace_id: traceId.toLowerCase(),
    span_id: spanId.toLowerCase(),
    parent_id: parent === null || ZERO.test(parent) ? null : parent.toLowerCase(),
    name: span.name,
    kind: KINDS[enumAt(span.kind, SPAN_KINDS, `${path}.kind`, 'a SpanKind')],
    status: code === 2 ? 'error' : code === 1 ? 'ok' : 'unset',
    start_ms: start,
    end_ms: end,
    duration_ms: Math.max(0, end - start),
    attributes: attributesOf(span.attributes, `${path}.attributes`),
    // An exporter sends spans when they end.
    ended: true,
  };
  if (typeof status.message === 'string' && status.message) record.status_message = status.message;
  const events = arrayAt(span.events, `${path}.events`);
  if (events.length) {
    record.events = events.map((event, e) => {
      const eventPath = `${path}.events[${e}]`;
      if (!isObject(event)) throw new OtlpDecodeError('expected an event object', eventPath);
      const attributes = attributesOf(event.attributes, `${eventPath}.attributes`);
      return {
        name: typeof event.name === 'string' ? event.name : '',
        time_ms: nanosToMs(event.timeUnixNano as string | number | undefined, `${eventPath}.timeUnixNano`),
        ...(Object.keys(attributes).length ? { attributes } : {}),
      };
    });
  }
  return record;
}

function attributesOf(value: unknown, path: string): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  arrayAt(value, path).forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.key !== 'string') throw new OtlpDecodeError('expected {key, value}', `${path}[${i}]`);
    const plain = plainValue((entry as unknown as OtlpAttribute).value, `${path}[${i}].value`);
    // setOwn: an exporter's attribute named `__proto__` is an attribute, never the object's prototype.
    if (plain !== undefined) setOwn(out, entry.key, plain);
  });
  return out;
}

/** An AnyValue as a span attribute: scalars as they are, arrays of scalars as arrays, the rest as JSON text. */
function plainValue(value: OtlpAnyValue | undefined, path: string): AttributeValue | undefined {
  const scalar = scalarValue(value, path);
  if (scalar !== undefined || !value) return scalar;
  if (value.arrayValue) {
    const items = arrayAt(value.arrayValue.values, `${path}.arrayValue.values`).map((item, i) =>
      jsonValue(item as OtlpAnyValue, `${path}.arrayValue.values[${i}]`),
    );
    const flat = items.every((item) => item === null || ['string', 'number', 'boolean'].includes(typeof item));
    return flat ? (items as Array<string | number | boolean | null>) : JSON.stringify(items);
  }
  if (value.kvlistValue) return JSON.stringify(jsonValue(value, path));
  return undefined;
}

function scalarValue(value: OtlpAnyValue | undefined, path: string): string | number | boolean | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (value.intValue !== undefined) return int64At(value.intValue, `${path}.intValue`);
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (typeof value.bytesValue === 'string') return value.bytesValue;
  return undefined;
}

function jsonValue(value: OtlpAnyValue | undefined, path: string): unknown {
  const scalar = scalarValue(value, path);
  if (scalar !== undefined || !value) return scalar ?? null;
  if (value.arrayValue) return arrayAt(value.arrayValue.values, path).map((item, i) => jsonValue(item as OtlpAnyValue, `${path}[${i}]`));
  if (value.kvlistValue) {
    const entries = arrayAt(value.kvlistValue.values, path) as OtlpAttribute[];
    return Object.fromEntries(entries.map((entry, i) => [String(entry.key), jsonValue(entry.value, `${path}.kvlistValue.values[${i}]`)]));
  }
  return null;
}

/** An int64 (a decimal string in the JSON encoding, or a number) as a number; one outside int64 is refused, never stored rounded. */
function int64At(value: unknown, path: string): number {
  const int = (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value)) ? BigInt(value) : undefined;
  if (int === undefined) throw new OtlpDecodeError(`expected an integer (a decimal string or a number), got ${describeValue(value)}`, path);
  if (int < INT64_MIN || int > INT64_MAX) throw new OtlpDecodeError(`expected an int64 (-2^63 to 2^63-1), got ${describeValue(value)}`, path);
  return Number(int);
}

/** An OTLP enum value: its number (0 when absent, protobuf's default) or its name; anything else is refused, naming the values. */
function enumAt(value: unknown, names: readonly string[], path: string, what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < names.length) return value;
  if (typeof value === 'string' && names.includes(value)) return names.indexOf(value);
  throw new OtlpDecodeError(`expected ${what}, 0 to ${names.length - 1} (${names.join(', ')}), got ${describeValue(value)}`, path);
}

/** A span's start or end time, which OTLP requires: missing, empty or 0 (protobuf's missing) is refused. */
function requiredNanosToMs(value: string | number | undefined, path: string, which: string): number {
  if (value === undefined || value === null || value === '' || value === 0 || value === '0')
    throw new OtlpDecodeError(`expected the span's ${which} time in nanoseconds since the epoch (OTLP requires it), got ${describeValue(value)}`, path);
  return nanosToMs(value, path);
}

function nanosToMs(value: string | number | undefined, path: string): number {
  if (value === undefined || value === '') return 0;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new OtlpDecodeError(`expected nanoseconds since the epoch, got ${value}`, path);
    return value / 1e6;
  }
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new OtlpDecodeError(`expected nanoseconds since the epoch as a decimal string, got ${JSON.stringify(value)}`, path);
  // Microseconds are exact in a double; the nanoseconds below them do not matter here.
  return Number(BigInt(value) / 1000n) / 1000;
}

function idAt(value: unknown, pattern: RegExp, path: string, expected: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new OtlpDecodeError(`expected ${expected}, got ${JSON.stringify(value)?.slice(0, 60)}`, path);
  return value;
}

/** An all-zero id is OTLP's invalid id (W3C Trace Context): it names no span, so the span cannot be joined. */
function nonZero(id: string, path: string, what: string): string {
  if (ZERO.test(id)) throw new OtlpDecodeError(`expected ${what} that is not all zeros (OTLP's invalid id), got ${JSON.stringify(id)}`, path);
  return id;
}

function arrayAt(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new OtlpDecodeError('expected an array', path);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
