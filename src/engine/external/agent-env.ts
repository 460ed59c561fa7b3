import type { SpanContext } from '@opentelemetry/api';
import { fillEnvValues } from '../template/env-values.js';
import { scrubbedEnv } from '../tools/process/run-process.js';
import { BRIDGE_API_KEY } from './model-bridge.js';

/** Where an external agent's model calls and spans go. */
export interface AgentEndpoints {
  bridgeUrl: string;
  /** The run's root span: the agent's own spans continue its trace. */
  root: SpanContext;
  otlpEndpoint?: string;
}

/** The W3C `traceparent` of a span context. */
export function traceparent(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.traceFlags.toString(16).padStart(2, '0')}`;
}

/**
 * The whole environment of an external agent's process (docs/external-agents.md, "Environment"):
 * PATH, the build's `external.env` (its `{{ env.NAME }}` filled from `source`; an unset one
 * throws a RunError naming the entry and the variable), and the variables that point its model
 * SDK at the bridge and its tracer at the run. Nothing else of agentcheck's environment passes
 * (API keys included) unless `external.env` names it.
 */
export function agentEnv(
  source: Readonly<Record<string, string | undefined>>,
  given: Readonly<Record<string, string>> | undefined,
  endpoints: AgentEndpoints,
): Record<string, string> {
  const env: Record<string, string> = {
    ...scrubbedEnv(source),
    ...externalEnv(given ?? {}, source),
    OPENAI_BASE_URL: `${endpoints.bridgeUrl}/v1`,
    OPENAI_API_KEY: BRIDGE_API_KEY,
    ANTHROPIC_BASE_URL: endpoints.bridgeUrl,
    ANTHROPIC_API_KEY: BRIDGE_API_KEY,
    TRACEPARENT: traceparent(endpoints.root),
  };
  if (endpoints.otlpEndpoint) {
    env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoints.otlpEndpoint;
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${endpoints.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
  }
  return env;
}

/** `external.env` as the agent gets it: `{{ env.NAME }}` filled from agentcheck's own environment. */
export function externalEnv(given: Readonly<Record<string, string>>, source: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return fillEnvValues(given, source, { code: 'TEMPLATE_UNDEFINED', where: (name) => `external.env.${name}` });
}
