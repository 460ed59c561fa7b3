import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/config/redactor.js';
import { spansToJsonl } from '../../src/spans/jsonl.js';
import { OwnSpanRecord, spanJsonLine } from '../../src/spans/own-span-record.js';
import { RecordingTracer } from '../../src/spans/recording-tracer.js';
import { newSpanId, newTraceId } from '../../src/spans/span-ids.js';
import { SpanStore } from '../../src/spans/span-store.js';

/** A trace with every field a record can have: quotes, control characters and non-ASCII text, events, statuses, odd times. */
function recordedTrace(store: SpanStore): string {
  const tracer = new RecordingTracer(store);
  const root = tracer.startSpan(
    'invoke_agent "bot"\n\u2028é😀',
    { attributes: { 'gen_ai.agent.name': 'b"o\\t', n: 1.5, list: ['a', null, 'c'] } },
    ROOT_CONTEXT,
  );
  const parent = trace.setSpan(ROOT_CONTEXT, root);
  const chat = tracer.startSpan(
    'chat m',
    { kind: SpanKind.CLIENT, attributes: { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: 'say "hi"\u0000' }]) } },
    parent,
  );
  chat.addEvent('retry', { attempt: 2, why: 'ECONNRESET "x"' });
  chat.recordException(new Error('boom "quoted"'));
  chat.setStatus({ code: SpanStatusCode.ERROR, message: 'failed:\t"why"' });
  chat.end();
  const ok = tracer.startSpan('execute_tool t', { startTime: [1, 500_000], attributes: { flags: [true, false], count: -0 } }, parent);
  ok.setStatus({ code: SpanStatusCode.OK });
  ok.end(Number.NaN);
  tracer.startSpan('still open', { kind: SpanKind.SERVER }, parent);
  root.end();
  return root.spanContext().traceId;
}

describe("writing this process's own span records", () => {
  it('gives the same JSON text as JSON.stringify for every kind of record the tracer makes, scrubbed or not, ended or open', () => {
    for (const redactor of [undefined, new Redactor().add(['b"o\\t-secret-value', 'ECONNRESET "x"'])]) {
      const store = new SpanStore();
      store.redactWith(redactor);
      const spans = store.take(recordedTrace(store));
      expect(spans).toHaveLength(4);
      expect(spans.some((span) => !span.ended)).toBe(true);
      for (const span of spans) {
        expect(span).toBeInstanceOf(OwnSpanRecord);
        expect(spanJsonLine(span)).toBe(JSON.stringify(span));
        expect(JSON.parse(spanJsonLine(span))).toEqual(JSON.parse(JSON.stringify(span)));
      }
      const tool = spans.find((span) => span.name === 'execute_tool t')!;
      expect(tool).toMatchObject({ status: 'ok', start_ms: 1000.5 });
      // end(NaN) ended it now (recording-span.test.ts); a time changed to one JSON has no text for
      // afterwards is written as JSON.stringify writes it.
      tool.end_ms = Number.NaN;
      expect(spanJsonLine(tool)).toBe(JSON.stringify(tool));
      expect(spanJsonLine(tool)).toContain('"end_ms":null');
    }
  });

  it('writes any other record with JSON.stringify, extra fields and key order kept', () => {
    const foreign = {
      extra: 'kept',
      trace_id: 'a"b',
      span_id: 's',
      parent_id: null,
      name: 'n',
      kind: 'internal' as const,
      status: 'unset' as const,
      start_ms: 0,
      end_ms: 1,
      duration_ms: 1,
      attributes: {},
      ended: true,
    };
    expect(spanJsonLine(foreign)).toBe(JSON.stringify(foreign));
    // A copy of an own record is a plain object again: its extra field is written too.
    const store = new SpanStore();
    const [own] = store.take(recordedTrace(store));
    const copy = { ...own, added: 1 };
    expect(JSON.parse(spanJsonLine(copy))).toMatchObject({ added: 1, span_id: own.span_id });
  });

  it("writes a caller's records with JSON.stringify: an own record changed after it was taken is still one valid line", () => {
    const store = new SpanStore();
    const [own] = store.take(recordedTrace(store));
    own.trace_id = 'quote " here';
    own.span_id = 'a\nb';
    expect(JSON.parse(spansToJsonl([own]))).toMatchObject({ trace_id: 'quote " here', span_id: 'a\nb' });
  });

  it('draws ids as lowercase hex of the right length, different every time, across the random pool refills', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const traceId = newTraceId();
      const spanId = newSpanId();
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spanId).toMatch(/^[0-9a-f]{16}$/);
      ids.add(traceId).add(spanId);
    }
    expect(ids.size).toBe(4000);
  });
});
