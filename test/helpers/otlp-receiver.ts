import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
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

/** Starts a receiver answering `status` (200 by default) to every POST. */
export async function startOtlpReceiver(status = 200): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-type']?.startsWith('application/x-protobuf')
        ? decodeProtobufTraceRequest(raw)
        : (JSON.parse(raw.toString('utf8')) as OtlpTraceRequest);
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 200 ? '{}' : '{"message":"rejected"}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    spans: () => received.flatMap((request) => (request.body.resourceSpans ?? []).flatMap((rs) => (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? []))),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
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
