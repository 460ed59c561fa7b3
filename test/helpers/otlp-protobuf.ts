import type { OtlpAttribute, OtlpSpan, OtlpTraceRequest } from './otlp-receiver.js';

// A minimal reader of the protobuf wire format, enough to decode an OTLP ExportTraceServiceRequest
// (opentelemetry/proto/collector/trace/v1) into the same shape as its JSON encoding, so tests can
// assert on protobuf exports exactly as on JSON ones.

type Field = { no: number; wire: number; varint?: bigint; bytes?: Uint8Array; fixed?: Uint8Array };

function* fields(buf: Uint8Array): Generator<Field> {
  let pos = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[pos++];
      if (byte === undefined) throw new Error('protobuf: truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { no, wire, varint: varint() };
    else if (wire === 1) { yield { no, wire, fixed: buf.subarray(pos, pos + 8) }; pos += 8; }
    else if (wire === 5) { yield { no, wire, fixed: buf.subarray(pos, pos + 4) }; pos += 4; }
    else if (wire === 2) {
      const length = Number(varint());
      yield { no, wire, bytes: buf.subarray(pos, pos + length) };
      pos += length;
    } else throw new Error(`protobuf: unsupported wire type ${wire}`);
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function anyValue(buf: Uint8Array): OtlpAttribute['value'] {
  for (const f of fields(buf)) {
    if (f.no === 1) return { stringValue: text(f.bytes!) };
    if (f.no === 2) return { boolValue: f.varint !== 0n };
    if (f.no === 3) return { intValue: String(BigInt.asIntN(64, f.varint!)) };
    if (f.no === 4) return { doubleValue: Buffer.from(f.fixed!).readDoubleLE(0) };
    if (f.no === 5) return { arrayValue: { values: [...fields(f.bytes!)].filter((v) => v.no === 1).map((v) => anyValue(v.bytes!)) } };
  }
  return {};
}

function keyValue(buf: Uint8Array): OtlpAttribute {
  let key = '';
  let value: OtlpAttribute['value'] = {};
  for (const f of fields(buf)) {
    if (f.no === 1) key = text(f.bytes!);
    if (f.no === 2) value = anyValue(f.bytes!);
  }
  return { key, value };
}

function span(buf: Uint8Array): OtlpSpan & { kind?: number } {
  const out: OtlpSpan & { kind?: number } = { traceId: '', spanId: '', name: '', attributes: [] };
  for (const f of fields(buf)) {
    if (f.no === 1) out.traceId = hex(f.bytes!);
    else if (f.no === 2) out.spanId = hex(f.bytes!);
    else if (f.no === 4 && f.bytes!.length) out.parentSpanId = hex(f.bytes!);
    else if (f.no === 5) out.name = text(f.bytes!);
    else if (f.no === 6) out.kind = Number(f.varint);
    else if (f.no === 9) out.attributes!.push(keyValue(f.bytes!));
    else if (f.no === 15) {
      const status: { code?: number; message?: string } = {};
      for (const s of fields(f.bytes!)) {
        if (s.no === 2) status.message = text(s.bytes!);
        if (s.no === 3) status.code = Number(s.varint);
      }
      out.status = status;
    }
  }
  return out;
}

/** Decodes an OTLP/HTTP protobuf trace export into the JSON encoding's shape. */
export function decodeTraceRequest(buf: Uint8Array): OtlpTraceRequest {
  const request: OtlpTraceRequest = { resourceSpans: [] };
  for (const rs of fields(buf)) {
    if (rs.no !== 1) continue;
    const entry: OtlpTraceRequest['resourceSpans'][number] = { resource: { attributes: [] }, scopeSpans: [] };
    for (const f of fields(rs.bytes!)) {
      if (f.no === 1) for (const r of fields(f.bytes!)) if (r.no === 1) entry.resource!.attributes!.push(keyValue(r.bytes!));
      if (f.no === 2) {
        const scope: { scope?: { name?: string }; spans: OtlpSpan[] } = { spans: [] };
        for (const s of fields(f.bytes!)) {
          if (s.no === 1) for (const n of fields(s.bytes!)) if (n.no === 1) scope.scope = { name: text(n.bytes!) };
          if (s.no === 2) scope.spans.push(span(s.bytes!));
        }
        entry.scopeSpans.push(scope);
      }
    }
    request.resourceSpans.push(entry);
  }
  return request;
}
