/**
 * The OTLP/HTTP JSON encoding of a trace export (ExportTraceServiceRequest,
 * opentelemetry/proto/collector/trace/v1): what an agent's exporter sends the receiver. The
 * protobuf decoder produces the same shape, so one reader turns both into span records.
 */
export interface OtlpTraceRequest {
  resourceSpans?: OtlpResourceSpans[];
}

export interface OtlpResourceSpans {
  resource?: { attributes?: OtlpAttribute[] };
  scopeSpans?: OtlpScopeSpans[];
}

export interface OtlpScopeSpans {
  scope?: { name?: string; version?: string };
  spans?: OtlpSpan[];
}

export interface OtlpSpan {
  /** 32 hex digits (the JSON encoding uses hex, not base64, for ids). */
  traceId: string;
  /** 16 hex digits. */
  spanId: string;
  /** 16 hex digits; absent or empty for a root span. */
  parentSpanId?: string;
  name: string;
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind?: number;
  /** Nanoseconds since the epoch: a decimal string (JSON encodes 64-bit integers as strings) or a number. */
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: OtlpAttribute[];
  events?: Array<{ timeUnixNano?: string | number; name?: string; attributes?: OtlpAttribute[] }>;
  /** code: 0 unset, 1 ok, 2 error. */
  status?: { code?: number; message?: string };
}

export interface OtlpAttribute {
  key: string;
  value?: OtlpAnyValue;
}

export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpAttribute[] };
  /** Base64 in the JSON encoding. */
  bytesValue?: string;
}
