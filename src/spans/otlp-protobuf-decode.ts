import { OtlpDecodeError } from './otlp-decode-error.js';
import type { OtlpAnyValue, OtlpAttribute, OtlpResourceSpans, OtlpScopeSpans, OtlpSpan, OtlpTraceRequest } from './otlp-trace-request.js';

// A reader of the protobuf wire format, enough to decode an OTLP ExportTraceServiceRequest
// (opentelemetry/proto/collector/trace/v1 and trace/v1/trace.proto) into the shape of its JSON
// encoding; unknown fields are skipped, as protobuf readers must. Hand-written because the
// OpenTelemetry JS packages only encode requests, and the format needs about a hundred lines.

type Field = { no: number; wire: number; varint?: bigint; bytes?: Uint8Array; fixed?: Uint8Array };

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH = 2;
const WIRE_FIXED32 = 5;

function* fields(buf: Uint8Array, path: string): Generator<Field> {
  let pos = 0;
  const truncated = () => new OtlpDecodeError('the protobuf body is truncated or malformed', path);
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[pos++];
      if (byte === undefined || shift > 63n) throw truncated();
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const take = (length: number): Uint8Array => {
    if (pos + length > buf.length) throw truncated();
    const bytes = buf.subarray(pos, pos + length);
    pos += length;
    return bytes;
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (no === 0) throw truncated();
    if (wire === WIRE_VARINT) yield { no, wire, varint: varint() };
    else if (wire === WIRE_FIXED64) yield { no, wire, fixed: take(8) };
    else if (wire === WIRE_FIXED32) yield { no, wire, fixed: take(4) };
    else if (wire === WIRE_LENGTH) yield { no, wire, bytes: take(Number(varint())) };
    else throw new OtlpDecodeError(`unsupported protobuf wire type ${wire} (field ${no})`, path);
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const fixed64 = (bytes: Uint8Array) => Buffer.from(bytes).readBigUInt64LE(0).toString();
/** A length-delimited field's bytes; a field of another wire type is malformed input. */
const bytesOf = (f: Field, path: string): Uint8Array => {
  if (f.bytes === undefined) throw new OtlpDecodeError(`field ${f.no} has wire type ${f.wire}, expected length-delimited`, path);
  return f.bytes;
};

function anyValue(buf: Uint8Array, path: string): OtlpAnyValue {
  for (const f of fields(buf, path)) {
    if (f.no === 1) return { stringValue: text(bytesOf(f, path)) };
    if (f.no === 2) return { boolValue: f.varint !== 0n };
    if (f.no === 3) return { intValue: String(BigInt.asIntN(64, f.varint ?? 0n)) };
    if (f.no === 4 && f.fixed) return { doubleValue: Buffer.from(f.fixed).readDoubleLE(0) };
    if (f.no === 5)
      return { arrayValue: { values: [...fields(bytesOf(f, path), path)].filter((v) => v.no === 1).map((v) => anyValue(bytesOf(v, path), path)) } };
    if (f.no === 6)
      return { kvlistValue: { values: [...fields(bytesOf(f, path), path)].filter((v) => v.no === 1).map((v) => keyValue(bytesOf(v, path), path)) } };
    if (f.no === 7) return { bytesValue: Buffer.from(bytesOf(f, path)).toString('base64') };
  }
  return {};
}

function keyValue(buf: Uint8Array, path: string): OtlpAttribute {
  const out: OtlpAttribute = { key: '' };
  for (const f of fields(buf, path)) {
    if (f.no === 1) out.key = text(bytesOf(f, path));
    if (f.no === 2) out.value = anyValue(bytesOf(f, path), `${path}.value`);
  }
  return out;
}

function event(buf: Uint8Array, path: string): NonNullable<OtlpSpan['events']>[number] {
  const out: NonNullable<OtlpSpan['events']>[number] = { attributes: [] };
  for (const f of fields(buf, path)) {
    if (f.no === 1 && f.fixed) out.timeUnixNano = fixed64(f.fixed);
    else if (f.no === 2) out.name = text(bytesOf(f, path));
    else if (f.no === 3) out.attributes!.push(keyValue(bytesOf(f, path), `${path}.attributes[${out.attributes!.length}]`));
  }
  return out;
}

function span(buf: Uint8Array, path: string): OtlpSpan {
  const out: OtlpSpan = { traceId: '', spanId: '', name: '', attributes: [], events: [] };
  for (const f of fields(buf, path)) {
    if (f.no === 1) out.traceId = hex(bytesOf(f, path));
    else if (f.no === 2) out.spanId = hex(bytesOf(f, path));
    else if (f.no === 4) out.parentSpanId = hex(bytesOf(f, path));
    else if (f.no === 5) out.name = text(bytesOf(f, path));
    else if (f.no === 6) out.kind = Number(f.varint ?? 0n);
    else if (f.no === 7 && f.fixed) out.startTimeUnixNano = fixed64(f.fixed);
    else if (f.no === 8 && f.fixed) out.endTimeUnixNano = fixed64(f.fixed);
    else if (f.no === 9) out.attributes!.push(keyValue(bytesOf(f, path), `${path}.attributes[${out.attributes!.length}]`));
    else if (f.no === 11) out.events!.push(event(bytesOf(f, path), `${path}.events[${out.events!.length}]`));
    else if (f.no === 15) {
      const status: NonNullable<OtlpSpan['status']> = {};
      for (const s of fields(bytesOf(f, path), `${path}.status`)) {
        if (s.no === 2) status.message = text(bytesOf(s, path));
        if (s.no === 3) status.code = Number(s.varint ?? 0n);
      }
      out.status = status;
    }
  }
  return out;
}

function scopeSpans(buf: Uint8Array, path: string): OtlpScopeSpans {
  const out: OtlpScopeSpans = { spans: [] };
  for (const f of fields(buf, path)) {
    if (f.no === 1) {
      const scope: NonNullable<OtlpScopeSpans['scope']> = {};
      for (const n of fields(bytesOf(f, path), `${path}.scope`)) {
        if (n.no === 1) scope.name = text(bytesOf(n, path));
        if (n.no === 2) scope.version = text(bytesOf(n, path));
      }
      out.scope = scope;
    } else if (f.no === 2) out.spans!.push(span(bytesOf(f, path), `${path}.spans[${out.spans!.length}]`));
  }
  return out;
}

/** Decodes an OTLP/HTTP protobuf trace export into the JSON encoding's shape; throws OtlpDecodeError on malformed bytes. */
export function decodeProtobufTraceRequest(buf: Uint8Array): OtlpTraceRequest {
  const request: Required<OtlpTraceRequest> = { resourceSpans: [] };
  for (const rs of fields(buf, '')) {
    if (rs.no !== 1) continue;
    const path = `resourceSpans[${request.resourceSpans.length}]`;
    const entry: Required<OtlpResourceSpans> = { resource: { attributes: [] }, scopeSpans: [] };
    for (const f of fields(bytesOf(rs, path), path)) {
      if (f.no === 1) {
        for (const r of fields(bytesOf(f, path), `${path}.resource`))
          if (r.no === 1) entry.resource.attributes!.push(keyValue(bytesOf(r, path), `${path}.resource`));
      } else if (f.no === 2) entry.scopeSpans.push(scopeSpans(bytesOf(f, path), `${path}.scopeSpans[${entry.scopeSpans.length}]`));
    }
    request.resourceSpans.push(entry);
  }
  return request;
}
