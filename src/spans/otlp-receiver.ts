import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { canonicalJson } from '../config/canonical-json.js';
import { decodeTraceRequest, type DecodedSpan } from './otlp-decode.js';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { decodeProtobufTraceRequest } from './otlp-protobuf-decode.js';

const gunzipAsync = promisify(gunzip);

/** Largest export body accepted, compressed or not: an agent's spans for one run stay far below it. */
export const MAX_OTLP_BODY_BYTES = 32 * 1024 * 1024;
const JSON_TYPE = 'application/json';
const PROTOBUF_TYPE = 'application/x-protobuf';
const TRACES_PATH = '/v1/traces';
// google.rpc.Code values a collector answers with.
const INVALID_ARGUMENT = 3;

/** A per-run OTLP/HTTP trace receiver on 127.0.0.1 (docs/external-agents.md, Its own spans). */
export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT, e.g. `http://127.0.0.1:4318`; traces go to `<endpoint>/v1/traces`. */
  readonly endpoint: string;
  /** Every span received so far, once each (an exporter's retry of a batch is not a second span). */
  spans(): DecodedSpan[];
  /** Requests being read right now. */
  readonly pending: number;
  /** Requests that have started arriving so far, refused ones included. */
  readonly requests: number;
  /** Why requests were refused (`415 ...`, `400 ...`), in arrival order. */
  readonly rejected: readonly string[];
  /**
   * The refused trace exports (POST /v1/traces), of `rejected`: spans the agent sent that are not
   * here. A request to another path (an exporter's /v1/metrics or /v1/logs) is no export of spans.
   */
  readonly refusedExports: readonly string[];
  /**
   * Resolves once the exporter has gone quiet: no request in flight and none finished for
   * `quietMs`, counted from the call or the last request. Gives up after `maxMs` (resolving
   * `false`); a request still being read then is left out.
   */
  whenQuiet(options: { quietMs: number; maxMs: number }): Promise<boolean>;
  close(): Promise<void>;
}

/** Starts a receiver on a random port of 127.0.0.1. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received = new Map<string, DecodedSpan>();
  const rejected: string[] = [];
  const refusedExports: string[] = [];
  let inFlight = 0;
  let requests = 0;
  let lastActivity = Date.now();
  const listeners = new Set<() => void>();
  const changed = () => {
    lastActivity = Date.now();
    for (const listener of listeners) listener();
  };

  const server = createServer((req, res) => {
    inFlight++;
    requests++;
    changed();
    handle(req, res, received, { rejected, refusedExports }).finally(() => {
      inFlight--;
      changed();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...received.values()],
    rejected,
    refusedExports,
    get pending() {
      return inFlight;
    },
    get requests() {
      return requests;
    },
    whenQuiet: ({ quietMs, maxMs }) =>
      new Promise<boolean>((resolve) => {
        const started = Date.now();
        lastActivity = Math.max(lastActivity, started);
        let timer: NodeJS.Timeout | undefined;
        const finish = (quiet: boolean) => {
          clearTimeout(timer);
          listeners.delete(check);
          resolve(quiet);
        };
        function check(): void {
          clearTimeout(timer);
          const now = Date.now();
          if (now - started >= maxMs) return finish(false);
          // A request being read keeps the wait going, however long it takes (up to maxMs).
          const quietFor = inFlight > 0 ? 0 : now - lastActivity;
          if (quietFor >= quietMs) return finish(true);
          timer = setTimeout(check, Math.min(quietMs - quietFor, maxMs - (now - started)));
        }
        listeners.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  received: Map<string, DecodedSpan>,
  refusals: { rejected: string[]; refusedExports: string[] },
): Promise<void> {
  const type = mediaType(req.headers['content-type']);
  // Past the path and method, the request is a trace export: refusing it loses spans.
  let isExport = false;
  const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
    refusals.rejected.push(`${status} ${message}`);
    if (isExport) refusals.refusedExports.push(`${status} ${message}`);
    reply(res, status, type === PROTOBUF_TYPE ? PROTOBUF_TYPE : JSON_TYPE, { code: INVALID_ARGUMENT, message }, headers);
  };
  try {
    const path = (req.url ?? '').split('?')[0];
    if (path !== TRACES_PATH) return refuse(404, `no such path ${path}: this receiver takes trace exports at POST ${TRACES_PATH}`);
    if (req.method !== 'POST') return refuse(405, `method ${req.method} is not allowed: send trace exports with POST`, { allow: 'POST' });
    isExport = true;
    if (type !== JSON_TYPE && type !== PROTOBUF_TYPE) {
      return refuse(415, `unsupported content type ${JSON.stringify(req.headers['content-type'] ?? '')}: send ${JSON_TYPE} or ${PROTOBUF_TYPE}`);
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity' && encoding !== 'gzip')
      return refuse(415, `unsupported content encoding ${JSON.stringify(encoding)}: send gzip or no encoding`);
    const raw = await readBody(req);
    if (raw === null) return refuse(413, `the body is larger than ${MAX_OTLP_BODY_BYTES} bytes`);
    const body = encoding === 'gzip' ? await gunzipBody(raw) : raw;
    if (body === null) return refuse(413, `the body is larger than ${MAX_OTLP_BODY_BYTES} bytes once unpacked (gzip)`);
    const spans = decodeTraceRequest(type === PROTOBUF_TYPE ? decodeProtobufTraceRequest(body) : parseJson(body));
    refuseChangedSpans(spans, received);
    for (const span of spans) received.set(`${span.record.trace_id}:${span.record.span_id}`, span);
    // A full success: an empty ExportTraceServiceResponse, in the request's encoding.
    reply(res, 200, type, {});
  } catch (error) {
    if (error instanceof OtlpDecodeError) return refuse(400, error.message);
    refuse(500, error instanceof Error ? error.message : String(error));
  }
}

/**
 * Throws OtlpDecodeError when a span reuses the ids of one received in an earlier export but
 * differs from it: a retry sends the same span again (counted once), a different span under a
 * known id would silently replace the first (a lost tool call). As for two spans of one export
 * with the same ids, the whole export is refused and the first span is kept.
 */
function refuseChangedSpans(spans: readonly DecodedSpan[], received: ReadonlyMap<string, DecodedSpan>): void {
  const content = ({ record, scope, service }: DecodedSpan) => canonicalJson({ record, scope, service });
  for (const span of spans) {
    const earlier = received.get(`${span.record.trace_id}:${span.record.span_id}`);
    if (earlier === undefined || content(earlier) === content(span)) continue;
    throw new OtlpDecodeError(
      `span id ${span.record.span_id} was already received in an earlier export with another span (${JSON.stringify(earlier.record.name)}) in this trace: each span needs its own id (the first is kept)`,
      `${span.path}.spanId`,
    );
  }
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Keep reading (and dropping) so the client gets the answer instead of a reset connection.
    if (size <= MAX_OTLP_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_OTLP_BODY_BYTES ? null : Buffer.concat(chunks);
}

/** The unpacked body, or null when it would be over the limit (a valid body, too large: 413, not 400). */
async function gunzipBody(raw: Buffer): Promise<Buffer | null> {
  try {
    return await gunzipAsync(raw, { maxOutputLength: MAX_OTLP_BODY_BYTES });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw new OtlpDecodeError(`the body is not valid gzip (${(error as Error).message})`);
  }
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new OtlpDecodeError(`the body is not valid JSON (${(error as Error).message})`);
  }
}

/** Answers in the request's encoding: a google.rpc.Status for errors, an empty response for success. */
function reply(res: ServerResponse, status: number, type: string, body: { code?: number; message?: string }, headers: Record<string, string> = {}): void {
  const payload = type === PROTOBUF_TYPE ? encodeStatus(body) : Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': type, 'content-length': String(payload.length), ...headers });
  res.end(payload);
}

/** google.rpc.Status {code = 1 (int32), message = 2 (string)} in protobuf; empty for a success. */
function encodeStatus(body: { code?: number; message?: string }): Buffer {
  if (body.message === undefined) return Buffer.alloc(0);
  const message = Buffer.from(body.message, 'utf8');
  return Buffer.concat([Buffer.from([0x08]), varint(body.code ?? 0), Buffer.from([0x12]), varint(message.length), message]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}
