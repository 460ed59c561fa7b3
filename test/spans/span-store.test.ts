import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/config/redactor.js';
import { RecordingTracer } from '../../src/spans/recording-tracer.js';
import { SpanStore } from '../../src/spans/span-store.js';

function setUp(): { store: SpanStore; tracer: RecordingTracer } {
  const store = new SpanStore();
  return { store, tracer: new RecordingTracer(store) };
}

describe('the span store', () => {
  it('gives a trace in start order whatever order its spans ended in, open ones in their place as snapshots', () => {
    const { store, tracer } = setUp();
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    const parent = trace.setSpan(ROOT_CONTEXT, root);
    const [a, b, c] = ['a', 'b', 'c'].map((name) => tracer.startSpan(name, {}, parent));
    c.end();
    a.end();
    const traceId = root.spanContext().traceId;
    const peeked = store.peek(traceId);
    expect(peeked.map((span) => [span.name, span.ended])).toEqual([
      ['root', false],
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
    // peek forgets nothing and leaves the open spans open: their ends are recorded after it.
    b.end();
    root.end();
    expect(store.ended().map((span) => span.name)).toEqual(['root', 'a', 'b', 'c']);
    expect(store.take(traceId).map((span) => [span.name, span.ended])).toEqual([
      ['root', true],
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
    expect(store.take(traceId)).toEqual([]);
  });

  it('sorts a span given an earlier start time than spans started before it into place, ties kept in start order', () => {
    const { store, tracer } = setUp();
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    const parent = trace.setSpan(ROOT_CONTEXT, root);
    const rootStart = store.peek(root.spanContext().traceId)[0].start_ms;
    tracer.startSpan('late', {}, parent).end();
    tracer.startSpan('backdated', { startTime: rootStart + 0.001 }, parent).end();
    tracer.startSpan('tied', { startTime: rootStart + 0.001 }, parent).end();
    root.end();
    expect(store.take(root.spanContext().traceId).map((span) => span.name)).toEqual(['root', 'backdated', 'tied', 'late']);
  });

  it('keeps a span that ends after its trace was taken for a later take, scrubbed like the others', () => {
    const { store, tracer } = setUp();
    store.redactWith(new Redactor().add(['s3cret-value']));
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    const straggler = tracer.startSpan('straggler', { attributes: { key: 'has s3cret-value' } }, trace.setSpan(ROOT_CONTEXT, root));
    root.end();
    const traceId = root.spanContext().traceId;
    const first = store.take(traceId);
    expect(first.map((span) => [span.name, span.ended, span.attributes.key])).toEqual([
      ['root', true, undefined],
      ['straggler', false, 'has [redacted]'],
    ]);
    straggler.end();
    expect(store.take(traceId).map((span) => [span.name, span.ended, span.attributes.key])).toEqual([['straggler', true, 'has [redacted]']]);
  });
});
