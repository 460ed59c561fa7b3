import {
  context as contextApi,
  SpanKind,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { RecordingSpan, type SpanListener } from './recording-span.js';
import { newSpanId, newTraceId } from './span-ids.js';

/**
 * A tracer of the OpenTelemetry API whose spans record straight into the span store. It samples
 * as the SDK's default (parent-based, always on): a child of an unsampled parent is not recorded.
 */
export class RecordingTracer implements Tracer {
  constructor(private readonly listener: SpanListener) {}

  startSpan(name: string, options: SpanOptions = {}, context: Context = contextApi.active()): Span {
    const parentSpan = options.root ? undefined : trace.getSpan(context);
    const parent = parentSpan?.spanContext();
    // Our own spans always have valid ids: the check (two regular expressions) is for foreign ones.
    const validParent = parent && (parentSpan instanceof RecordingSpan || trace.isSpanContextValid(parent)) ? parent : undefined;
    if (validParent && !(validParent.traceFlags & TraceFlags.SAMPLED)) {
      return trace.wrapSpanContext({ traceId: validParent.traceId, spanId: newSpanId(), traceFlags: TraceFlags.NONE });
    }
    const span = new RecordingSpan(
      name,
      options.kind ?? SpanKind.INTERNAL,
      validParent?.traceId ?? newTraceId(),
      newSpanId(),
      validParent?.spanId,
      options.attributes,
      options.startTime,
      this.listener,
      parentSpan instanceof RecordingSpan && validParent ? parentSpan : undefined,
    );
    if (options.links) span.addLinks(options.links);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, context: Context, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const fn = rest.pop() as F;
    const [options, parent = contextApi.active()] = rest as [SpanOptions | undefined, Context | undefined];
    const span = this.startSpan(name, options, parent);
    return contextApi.with(trace.setSpan(parent, span), () => fn(span) as ReturnType<F>);
  }
}

/** A tracer provider handing out one RecordingTracer, whatever the instrumentation scope asked. */
export class RecordingTracerProvider implements TracerProvider {
  private readonly tracer: RecordingTracer;

  constructor(listener: SpanListener) {
    this.tracer = new RecordingTracer(listener);
  }

  getTracer(): Tracer {
    return this.tracer;
  }
}
