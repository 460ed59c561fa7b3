import { gzipSync } from 'node:zlib';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_OTLP_BODY_BYTES, startOtlpReceiver, type OtlpReceiver } from '../../src/spans/otlp-receiver.js';

/** The OTLP/JSON body of one export of `spans` (one resource, one scope). */
const exportOf = (...spans: unknown[]) => JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
/** A span with the times OTLP requires, named `name`: the body of a one-span export. */
const timedSpan = (name: string) => ({
  traceId: 'a'.repeat(32),
  spanId: 'b'.repeat(16),
  name,
  startTimeUnixNano: '1700000000000000000',
  endTimeUnixNano: '1700000000500000000',
});

let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** Records a small trace with the real OpenTelemetry SDK and exports it through `exporter`. */
async function exportTrace(exporter: SpanExporter): Promise<{ traceId: string; toolSpanId: string }> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'my-agent' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('ai', '6.0.0');
  let ids = { traceId: '', toolSpanId: '' };
  const root = tracer.startSpan('ai.generateText');
  {
    const attributes = { 'ai.toolCall.name': 'read_file', 'ai.toolCall.id': 'call_1', 'ai.usage.inputTokens': 12, ok: true, tags: ['a', 'b'] };
    const tool = tracer.startSpan('ai.toolCall', { kind: SpanKind.CLIENT, attributes }, trace.setSpan(context.active(), root));
    tool.addEvent('exception', { 'exception.message': 'no such file' });
    tool.setStatus({ code: SpanStatusCode.ERROR, message: 'no such file' });
    tool.end();
    ids = { traceId: root.spanContext().traceId, toolSpanId: tool.spanContext().spanId };
    root.end();
  }
  await provider.forceFlush();
  await provider.shutdown();
  return ids;
}

function expectDecoded(receiver: OtlpReceiver, ids: { traceId: string; toolSpanId: string }): void {
  const spans = receiver.spans();
  expect(spans.map((span) => span.record.name).sort()).toEqual(['ai.generateText', 'ai.toolCall']);
  const root = spans.find((span) => span.record.name === 'ai.generateText')!.record;
  const tool = spans.find((span) => span.record.name === 'ai.toolCall')!;
  expect(tool.scope).toBe('ai');
  expect(tool.service).toBe('my-agent');
  expect(tool.record).toMatchObject({
    trace_id: ids.traceId,
    span_id: ids.toolSpanId,
    parent_id: root.span_id,
    kind: 'client',
    status: 'error',
    status_message: 'no such file',
    ended: true,
    attributes: { 'ai.toolCall.name': 'read_file', 'ai.toolCall.id': 'call_1', 'ai.usage.inputTokens': 12, ok: true, tags: ['a', 'b'] },
    events: [{ name: 'exception', attributes: { 'exception.message': 'no such file' } }],
  });
  expect(root.parent_id).toBeNull();
  expect(tool.record.start_ms).toBeGreaterThan(1.7e12);
  expect(tool.record.end_ms).toBeGreaterThanOrEqual(tool.record.start_ms);
  expect(receiver.rejected).toEqual([]);
}

async function post(path: string, body: string | Buffer, headers: Record<string, string>, method = 'POST') {
  const response = await fetch(`${receiver!.endpoint}${path}`, { method, body: method === 'GET' ? undefined : body, headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('OTLP receiver', () => {
  it('decodes a JSON export from the OpenTelemetry SDK exporter into span records', async () => {
    receiver = await startOtlpReceiver();
    expect(receiver.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ids = await exportTrace(new JsonTraceExporter({ url: `${receiver.endpoint}/v1/traces` }));
    expectDecoded(receiver, ids);
  });

  it('decodes a protobuf export, and a gzip-compressed one', async () => {
    receiver = await startOtlpReceiver();
    const plain = await exportTrace(new ProtobufTraceExporter({ url: `${receiver.endpoint}/v1/traces` }));
    expectDecoded(receiver, plain);
    await receiver.close();

    receiver = await startOtlpReceiver();
    const gzipped = await exportTrace(new ProtobufTraceExporter({ url: `${receiver.endpoint}/v1/traces`, compression: 'gzip' as never }));
    expectDecoded(receiver, gzipped);
  });

  it('decodes a gzip-compressed JSON body and answers an empty ExportTraceServiceResponse', async () => {
    receiver = await startOtlpReceiver();
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'a'.repeat(32),
                  spanId: 'b'.repeat(16),
                  parentSpanId: '',
                  name: 'x',
                  startTimeUnixNano: '1700000000000000000',
                  endTimeUnixNano: '1700000000500000000',
                  attributes: [
                    { key: 'n', value: { intValue: '7' } },
                    { key: 'kv', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const reply = await post('/v1/traces', gzipSync(JSON.stringify(body)), { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' });
    expect(reply).toEqual({ status: 200, type: 'application/json', text: '{}' });
    expect(receiver.spans()[0].record).toMatchObject({ name: 'x', parent_id: null, start_ms: 1.7e12, duration_ms: 500, attributes: { n: 7, kv: '{"k":"v"}' } });
  });

  it('refuses bad bodies with 400 and a message saying where the problem is', async () => {
    receiver = await startOtlpReceiver();
    const json = { 'content-type': 'application/json' };
    expect(await post('/v1/traces', '{"resourceSpans": [', json)).toMatchObject({ status: 400, text: expect.stringContaining('the body is not valid JSON') });
    const badId = { resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'xyz', spanId: 'b'.repeat(16), name: 'x' }] }] }] };
    const reply = await post('/v1/traces', JSON.stringify(badId), json);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toEqual({
      code: 3,
      message: 'resourceSpans[0].scopeSpans[0].spans[0].traceId: expected a trace id of 32 hex digits, got "xyz"',
    });
    expect(await post('/v1/traces', Buffer.from([0x0a, 0x05, 0x01]), { 'content-type': 'application/x-protobuf' })).toMatchObject({
      status: 400,
      type: 'application/x-protobuf',
      text: expect.stringContaining('truncated or malformed'),
    });
    expect(await post('/v1/traces', 'not gzip', { ...json, 'content-encoding': 'gzip' })).toMatchObject({
      status: 400,
      text: expect.stringContaining('not valid gzip'),
    });
    expect(receiver.spans()).toEqual([]);
    expect(receiver.rejected).toHaveLength(4);
  });

  it('refuses a valid gzip body over the limit once unpacked with 413, not as invalid gzip', async () => {
    receiver = await startOtlpReceiver();
    const body = JSON.stringify({ resourceSpans: [], pad: 'x'.repeat(MAX_OTLP_BODY_BYTES) });
    const reply = await post('/v1/traces', gzipSync(body), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.text)).toEqual({ code: 3, message: `the body is larger than ${MAX_OTLP_BODY_BYTES} bytes once unpacked (gzip)` });
    expect(receiver.rejected).toEqual([`413 the body is larger than ${MAX_OTLP_BODY_BYTES} bytes once unpacked (gzip)`]);
  });

  it('refuses other content types and encodings with 415, other paths with 404 and other methods with 405', async () => {
    receiver = await startOtlpReceiver();
    expect(await post('/v1/traces', 'x', { 'content-type': 'text/plain' })).toMatchObject({
      status: 415,
      text: expect.stringContaining('send application/json or application/x-protobuf'),
    });
    expect(await post('/v1/traces', 'x', { 'content-type': 'application/json', 'content-encoding': 'br' })).toMatchObject({
      status: 415,
      text: expect.stringContaining('unsupported content encoding \\"br\\"'),
    });
    expect(await post('/v1/metrics', '{}', { 'content-type': 'application/json' })).toMatchObject({
      status: 404,
      text: expect.stringContaining('POST /v1/traces'),
    });
    expect(await post('/v1/traces', '', {}, 'GET')).toMatchObject({ status: 405 });
    expect(receiver.rejected.map((line) => line.slice(0, 3))).toEqual(['415', '415', '404', '405']);
  });

  it("refuses with 400, saying where, a span without a start or end time, a missing or non-string name, an intValue beyond int64, a kind or status code outside OTLP's enums", async () => {
    receiver = await startOtlpReceiver();
    const json = { 'content-type': 'application/json' };
    const span = (extra: object) => ({
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      name: 'x',
      startTimeUnixNano: '1700000000000000000',
      endTimeUnixNano: '1700000000500000000',
      ...extra,
    });
    const at = 'resourceSpans[0].scopeSpans[0].spans[0]';
    // Before, each was kept: at 1970 (start_ms 0), named "", 1e20, internal, unset.
    const cases: Array<[object, string]> = [
      [
        { startTimeUnixNano: undefined },
        `${at}.startTimeUnixNano: expected the span's start time in nanoseconds since the epoch (OTLP requires it), got nothing`,
      ],
      [{ endTimeUnixNano: undefined }, `${at}.endTimeUnixNano: expected the span's end time in nanoseconds since the epoch (OTLP requires it), got nothing`],
      [{ startTimeUnixNano: '0' }, `${at}.startTimeUnixNano: expected the span's start time in nanoseconds since the epoch (OTLP requires it), got string "0"`],
      [{ name: undefined }, `${at}.name: expected the span's name, a non-empty string, got nothing`],
      [{ name: 5 }, `${at}.name: expected the span's name, a non-empty string, got number 5`],
      [
        { attributes: [{ key: 'big', value: { intValue: '99999999999999999999' } }] },
        `${at}.attributes[0].value.intValue: expected an int64 (-2^63 to 2^63-1), got string "99999999999999999999"`,
      ],
      [
        { attributes: [{ key: 'half', value: { intValue: '1.5' } }] },
        `${at}.attributes[0].value.intValue: expected an integer (a decimal string or a number), got string "1.5"`,
      ],
      [
        { kind: 99 },
        `${at}.kind: expected a SpanKind, 0 to 5 (SPAN_KIND_UNSPECIFIED, SPAN_KIND_INTERNAL, SPAN_KIND_SERVER, SPAN_KIND_CLIENT, SPAN_KIND_PRODUCER, SPAN_KIND_CONSUMER), got number 99`,
      ],
      [{ status: { code: 7 } }, `${at}.status.code: expected a StatusCode, 0 to 2 (STATUS_CODE_UNSET, STATUS_CODE_OK, STATUS_CODE_ERROR), got number 7`],
      [{ status: 2 }, `${at}.status: expected a Status object, got number 2`],
    ];
    for (const [extra, message] of cases) {
      const reply = await post('/v1/traces', exportOf(span(extra)), json);
      expect(reply, message).toEqual({ status: 400, type: 'application/json', text: JSON.stringify({ code: 3, message }) });
    }
    expect(receiver.spans()).toEqual([]);
    expect(receiver.rejected).toHaveLength(cases.length);
    // The largest int64, an enum by its name (protobuf's JSON mapping) and an absent kind and status are read.
    const valid = span({
      kind: 'SPAN_KIND_SERVER',
      status: { code: 'STATUS_CODE_ERROR' },
      attributes: [{ key: 'max', value: { intValue: '9223372036854775807' } }],
    });
    expect((await post('/v1/traces', exportOf(valid, span({ spanId: 'c'.repeat(16) })), json)).status).toBe(200);
    expect(receiver.spans().map(({ record }) => [record.kind, record.status, record.attributes.max ?? null])).toEqual([
      ['server', 'error', Number(2n ** 63n - 1n)],
      ['internal', 'unset', null],
    ]);
  });

  it('counts a span an exporter sends twice (a retried batch) once', async () => {
    receiver = await startOtlpReceiver();
    const body = exportOf(timedSpan('x'));
    await post('/v1/traces', body, { 'content-type': 'application/json' });
    await post('/v1/traces', body, { 'content-type': 'application/json' });
    expect(receiver.spans()).toHaveLength(1);
  });

  it('refuses a later export whose span reuses a received id with another span (400, listed as rejected, the first kept), while a true retry counts once', async () => {
    receiver = await startOtlpReceiver();
    const json = { 'content-type': 'application/json' };
    const span = (spanId: string, name: string, extra: object = {}) => ({
      traceId: 'a'.repeat(32),
      spanId,
      name,
      startTimeUnixNano: '1700000000000000000',
      endTimeUnixNano: '1700000000500000000',
      ...extra,
    });
    expect((await post('/v1/traces', exportOf(span('c400000000000004', 'f')), json)).status).toBe(200);
    expect((await post('/v1/traces', exportOf(span('c400000000000004', 'f')), json)).status).toBe(200);
    const changed = exportOf(span('c400000000000005', 'h'), span('c400000000000004', 'g', { status: { code: 2, message: 'x' } }));
    const message =
      'resourceSpans[0].scopeSpans[0].spans[1].spanId: span id c400000000000004 was already received in an earlier export with another span ("f") in this trace: each span needs its own id (the first is kept)';
    expect(await post('/v1/traces', changed, json)).toEqual({ status: 400, type: 'application/json', text: JSON.stringify({ code: 3, message }) });
    expect(receiver.rejected).toEqual([`400 ${message}`]);
    // The whole export is refused, as for two spans of one export with the same ids.
    expect(receiver.spans().map((decoded) => [decoded.record.name, decoded.record.status])).toEqual([['f', 'unset']]);
  });

  it('refuses an export with two spans of the same ids, or an all-zero trace or span id, as it refuses any invalid span: 400, listed as rejected, none of its spans kept', async () => {
    receiver = await startOtlpReceiver();
    const json = { 'content-type': 'application/json' };
    const span = (spanId: string, name: string, traceId = 'a'.repeat(32)) => ({
      traceId,
      spanId,
      name,
      parentSpanId: '0'.repeat(16),
      startTimeUnixNano: '1700000000000000000',
      endTimeUnixNano: '1700000000500000000',
    });
    const sent = [
      exportOf(span('c400000000000001', 'd1'), span('c400000000000001', 'd2')),
      exportOf(span('0'.repeat(16), 'zero span id')),
      exportOf(span('c400000000000002', 'zero trace id', '0'.repeat(32))),
    ];
    const replies = [];
    for (const body of sent) replies.push(await post('/v1/traces', body, json));
    const messages = [
      'resourceSpans[0].scopeSpans[0].spans[1].spanId: span id c400000000000001 is also the id of resourceSpans[0].scopeSpans[0].spans[0] in this trace: each span needs its own id',
      'resourceSpans[0].scopeSpans[0].spans[0].spanId: expected a span id that is not all zeros (OTLP\'s invalid id), got "0000000000000000"',
      'resourceSpans[0].scopeSpans[0].spans[0].traceId: expected a trace id that is not all zeros (OTLP\'s invalid id), got "00000000000000000000000000000000"',
    ];
    expect(replies).toEqual(messages.map((message) => ({ status: 400, type: 'application/json', text: JSON.stringify({ code: 3, message }) })));
    expect(receiver.rejected).toEqual(messages.map((message) => `400 ${message}`));
    expect(receiver.spans()).toEqual([]);
    // The same span id in another trace is another span; an all-zero parent id still means a root.
    expect((await post('/v1/traces', exportOf(span('c400000000000001', 'a'), span('c400000000000001', 'b', 'b'.repeat(32))), json)).status).toBe(200);
    expect(receiver.spans().map((decoded) => [decoded.record.name, decoded.record.parent_id])).toEqual([
      ['a', null],
      ['b', null],
    ]);
  });
});

describe('OTLP receiver: waiting for late spans', () => {
  const body = exportOf(timedSpan('late'));

  /** Starts a request and sends half its body, holding the rest until `finish` is called. */
  async function halfSentRequest(): Promise<{ finish: () => void; done: Promise<number> }> {
    const { request } = await import('node:http');
    const req = request(`${receiver!.endpoint}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    });
    const done = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 20));
    while (receiver!.pending === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return { finish: () => req.end(body.slice(20)), done };
  }

  it('keeps waiting while a request is being read, however long the quiet window', async () => {
    receiver = await startOtlpReceiver();
    const request = await halfSentRequest();
    let settled = false;
    const quiet = receiver.whenQuiet({ quietMs: 1, maxMs: 600_000 }).then((value) => ((settled = true), value));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    request.finish();
    expect(await request.done).toBe(200);
    expect(await quiet).toBe(true);
    expect(receiver.spans().map((span) => span.record.name)).toEqual(['late']);
  });

  it('gives up at maxMs when a request never completes', async () => {
    receiver = await startOtlpReceiver();
    const request = await halfSentRequest();
    expect(await receiver.whenQuiet({ quietMs: 1, maxMs: 50 })).toBe(false);
    expect(receiver.spans()).toEqual([]);
    request.done.catch(() => undefined);
  });
});
