import { trace, type Tracer } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { VERSION } from '../config/version.js';
import { SpanStore } from './span-store.js';

/** The process-wide tracing set-up: one provider, one in-memory store (docs/spans.md). */
export interface TracingRuntime {
  provider: BasicTracerProvider;
  store: SpanStore;
  tracer: Tracer;
}

let runtime: TracingRuntime | undefined;

/** Installs the tracer provider once per process and returns it; later calls return the same one. */
export function installTracing(): TracingRuntime {
  if (runtime) return runtime;
  const store = new SpanStore();
  // Attribute values are kept whole: tool arguments and results are evidence.
  const provider = new BasicTracerProvider({
    // Collectors (Jaeger, Tempo, Phoenix, Langfuse) group spans by service.
    resource: resourceFromAttributes({ 'service.name': 'agentcheck', 'service.version': VERSION }),
    spanProcessors: [store],
  });
  trace.setGlobalTracerProvider(provider);
  runtime = { provider, store, tracer: provider.getTracer('agentcheck') };
  return runtime;
}
