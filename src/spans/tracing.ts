import { trace, type Tracer } from '@opentelemetry/api';
import { RecordingTracerProvider } from './recording-tracer.js';
import { SpanStore } from './span-store.js';

/**
 * The process-wide tracing set-up: one provider, one in-memory store (docs/spans.md). The
 * provider is agentcheck's own, recording straight into the store; the OpenTelemetry SDK is
 * loaded only when spans are exported over OTLP.
 */
export interface TracingRuntime {
  provider: RecordingTracerProvider;
  store: SpanStore;
  tracer: Tracer;
}

let runtime: TracingRuntime | undefined;

/** Installs the tracer provider once per process and returns it; later calls return the same one. */
export function installTracing(): TracingRuntime {
  if (runtime) return runtime;
  const store = new SpanStore();
  const provider = new RecordingTracerProvider(store);
  trace.setGlobalTracerProvider(provider);
  runtime = { provider, store, tracer: provider.getTracer() };
  return runtime;
}
