import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtobufTraceRequest } from '../../src/spans/otlp-protobuf-decode.js';
import type { OtlpAnyValue, OtlpSpan, OtlpTraceRequest } from '../../src/spans/otlp-trace-request.js';

export type { OtlpSpan, OtlpTraceRequest } from '../../src/spans/otlp-trace-request.js';

/** One OTLP/HTTP request as the receiver got it. */
export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  body: OtlpTraceRequest;
}

/**
 * A recording OTLP/HTTP receiver for tests of agentcheck's own export: keeps every request (path,
 * headers, body) and answers a chosen status. The product's receiver is src/spans/otlp-receiver.ts.
 */
export interface OtlpReceiver {
  url: string;
  received: ReceivedExport[];
  /** Every span of every request. */
  spans(): OtlpSpan[];
  close(): Promise<void>;
}

/** An OTLP partial success a receiver answers with (OTLP specification, "Partial Success"). */
export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/**
 * Starts a receiver answering `status` (200 by default) to every POST; with `partialSuccess`, a
 * 200 carries it in the request's own encoding (JSON, or protobuf for a protobuf request). With
 * `hold`, it reads and answers a request only once `hold` has resolved: the exporter waits meanwhile.
 */
export async function startOtlpReceiver(status = 200, partialSuccess?: PartialSuccess, hold?: Promise<void>): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-type']?.startsWith('application/x-protobuf')
        ? decodeProtobufTraceRequest(raw)
        : (JSON.parse(raw.toString('utf8')) as OtlpTraceRequest);
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const protobuf = req.headers['content-type']?.startsWith('application/x-protobuf');
      if (status === 200 && partialSuccess && protobuf) {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end(protobufPartialSuccess(partialSuccess));
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      // OTLP/JSON writes int64 as a string.
      const ok = partialSuccess ? JSON.stringify({ partialSuccess: { ...partialSuccess, rejectedSpans: String(partialSuccess.rejectedSpans) } }) : '{}';
      res.end(status === 200 ? ok : '{"message":"rejected"}');
    });
  };
  // A request's body waits in its stream until it is read.
  const server: Server = createServer((req, res) => (hold ? void hold.then(() => answer(req, res)) : answer(req, res)));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    spans: () => received.flatMap((request) => (request.body.resourceSpans ?? []).flatMap((rs) => (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? []))),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** ExportTraceServiceResponse {partial_success (1): {rejected_spans (1, varint), error_message (2)}} as protobuf bytes. */
function protobufPartialSuccess({ rejectedSpans, errorMessage }: PartialSuccess): Buffer {
  const varint = (value: number): number[] => {
    const bytes: number[] = [];
    for (let rest = value; ; rest = Math.floor(rest / 128)) {
      if (rest < 128) return [...bytes, rest];
      bytes.push((rest % 128) | 128);
    }
  };
  const message = Buffer.from(errorMessage, 'utf8');
  const inner = Buffer.from([0x08, ...varint(rejectedSpans), 0x12, ...varint(message.length), ...message]);
  return Buffer.from([0x0a, ...varint(inner.length), ...inner]);
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** An attribute's value as a plain JS value (string, number, boolean or array). */
export function attr(span: OtlpSpan, key: string): unknown {
  const found = span.attributes?.find((a) => a.key === key);
  return found ? plain(found.value) : undefined;
}

function plain(value: OtlpAnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}
