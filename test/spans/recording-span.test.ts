import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { isWholeSpanRecord } from '../../src/spans/span-record-check.js';
import { Redactor } from '../../src/config/redactor.js';
import { RecordingTracer } from '../../src/spans/recording-tracer.js';
import { SpanStore } from '../../src/spans/span-store.js';

function setUp(): { store: SpanStore; tracer: RecordingTracer } {
  const store = new SpanStore();
  return { store, tracer: new RecordingTracer(store) };
}

describe("agentcheck's own tracer behind the OpenTelemetry API", () => {
  it('records parent, kind, attributes, events and status as the SDK did, by trace', () => {
    const { store, tracer } = setUp();
    const given = { 'gen_ai.agent.name': 'bot', skipped: undefined, '': 'empty key', object: { a: 1 }, mixed: ['a', 1], nothing: null } as never;
    const root = tracer.startSpan('invoke_agent bot', { attributes: given }, ROOT_CONTEXT);
    const chat = tracer.startSpan('chat m', { kind: SpanKind.CLIENT, attributes: { n: 1 } }, trace.setSpan(ROOT_CONTEXT, root));
    chat.setAttribute('list', ['a', 'b']);
    // Not attribute values: ignored, as the SDK ignores them.
    chat.setAttribute('object', { a: 1 } as never);
    chat.setAttribute('mixed', ['a', 1] as never);
    chat.setAttribute('', 'empty key');
    chat.addEvent('note', { why: 'because' });
    chat.setStatus({ code: SpanStatusCode.OK });
    chat.setStatus({ code: SpanStatusCode.ERROR, message: 'too late: OK is final' });
    chat.end();
    chat.setAttribute('after', 'end');
    root.setStatus({ code: SpanStatusCode.ERROR, message: 'failed' });
    root.end();

    const spans = store.take(root.spanContext().traceId);
    expect(spans).toHaveLength(2);
    const first = spans.find((span) => span.name === 'invoke_agent bot');
    const second = spans.find((span) => span.name === 'chat m');
    expect(first).toMatchObject({
      name: 'invoke_agent bot',
      kind: 'internal',
      parent_id: null,
      status: 'error',
      status_message: 'failed',
      ended: true,
      attributes: { 'gen_ai.agent.name': 'bot' },
    });
    // The start attributes are a copy of the caller's: what the API ignores is dropped there only.
    expect(Object.keys(first!.attributes)).toEqual(['gen_ai.agent.name']);
    expect(Object.keys(given)).toHaveLength(6);
    expect(first!.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(first!.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(second).toMatchObject({
      name: 'chat m',
      kind: 'client',
      parent_id: first!.span_id,
      trace_id: first!.trace_id,
      status: 'ok',
      attributes: { n: 1, list: ['a', 'b'] },
    });
    expect(Object.keys(second!.attributes)).toEqual(['n', 'list']);
    expect(second!.status_message).toBeUndefined();
    expect(second!.events).toEqual([{ name: 'note', time_ms: expect.any(Number), attributes: { why: 'because' } }]);
    expect(second!.end_ms).toBeGreaterThanOrEqual(second!.start_ms);
    expect(second!.duration_ms).toBe(second!.end_ms - second!.start_ms);
    expect(store.take(root.spanContext().traceId)).toEqual([]);
  });

  it("reads every time of a trace on its root's clock: children start at or after their parent, and a backdated parent moves no child", () => {
    const { store, tracer } = setUp();
    const before = Date.now();
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    const child = tracer.startSpan('child', {}, trace.setSpan(ROOT_CONTEXT, root));
    const grandchild = tracer.startSpan('grandchild', {}, trace.setSpan(ROOT_CONTEXT, child));
    grandchild.end();
    child.end();
    const backdated = tracer.startSpan('backdated', { startTime: before - 10_000 }, trace.setSpan(ROOT_CONTEXT, root));
    const late = tracer.startSpan('late child', {}, trace.setSpan(ROOT_CONTEXT, backdated));
    late.end();
    backdated.end();
    root.end();
    const spans = Object.fromEntries(store.take(root.spanContext().traceId).map((span) => [span.name, span]));
    expect(spans.root.start_ms).toBeGreaterThanOrEqual(before);
    expect(spans.child.start_ms).toBeGreaterThanOrEqual(spans.root.start_ms);
    expect(spans.grandchild.start_ms).toBeGreaterThanOrEqual(spans.child.start_ms);
    expect(spans.grandchild.end_ms).toBeLessThanOrEqual(spans.child.end_ms);
    expect(spans.child.end_ms).toBeLessThanOrEqual(spans.root.end_ms);
    expect(spans.backdated.start_ms).toBe(before - 10_000);
    expect(spans['late child'].start_ms).toBeGreaterThanOrEqual(before);
    expect(spans.backdated.duration_ms).toBeGreaterThanOrEqual(10_000);
  });

  it('takes a time that is no time (NaN, an invalid Date) as now, so every record is whole (readSpansJsonl reads it back)', () => {
    const { store, tracer } = setUp();
    const before = Date.now();
    const root = tracer.startSpan('root', { startTime: Number.NaN }, ROOT_CONTEXT);
    const child = tracer.startSpan('child', { startTime: new Date('not a date') }, trace.setSpan(ROOT_CONTEXT, root));
    child.addEvent('e', { a: 1 }, Number.NaN);
    child.end(new Date('not a date'));
    root.end(Number.POSITIVE_INFINITY);
    const spans = store.take(root.spanContext().traceId);
    for (const span of spans) {
      expect(span.start_ms).toBeGreaterThanOrEqual(before);
      expect(span.end_ms).toBeGreaterThanOrEqual(span.start_ms);
      expect(isWholeSpanRecord(span), JSON.stringify(span)).toBe(true);
    }
    expect(spans.find((span) => span.name === 'child')!.events![0].time_ms).toBeGreaterThanOrEqual(before);
  });

  it('shows open spans as ended: false, starts a new trace for root: true, and does not record under an unsampled parent', () => {
    const { store, tracer } = setUp();
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    const fresh = tracer.startSpan('evaluate', { root: true }, trace.setSpan(ROOT_CONTEXT, root));
    expect(fresh.spanContext().traceId).not.toBe(root.spanContext().traceId);
    expect(store.peek(root.spanContext().traceId)).toEqual([expect.objectContaining({ name: 'root', ended: false })]);

    const unsampled = trace.wrapSpanContext({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.NONE });
    const child = tracer.startSpan('child', {}, trace.setSpan(ROOT_CONTEXT, unsampled));
    expect(child.isRecording()).toBe(false);
    child.end();
    expect(store.take('a'.repeat(32))).toEqual([]);
  });

  it('scrubs an ended span before it is stored: name, attributes, status message and events', () => {
    const { store, tracer } = setUp();
    store.redactWith(new Redactor().add(['sk-secret-value-123']));
    const span = tracer.startSpan('call sk-secret-value-123', { attributes: { arg: 'key=sk-secret-value-123', list: ['sk-secret-value-123'] } }, ROOT_CONTEXT);
    span.addEvent('e', { detail: 'sk-secret-value-123' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'bad sk-secret-value-123' });
    span.end();
    const [record] = store.take(span.spanContext().traceId);
    expect(JSON.stringify(record)).not.toContain('sk-secret-value-123');
    expect(record).toMatchObject({ name: 'call [redacted]', attributes: { arg: 'key=[redacted]', list: ['[redacted]'] }, status_message: 'bad [redacted]' });
  });
});
