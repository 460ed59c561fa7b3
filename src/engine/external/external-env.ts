/**
 * The variables agentcheck sets for an external agent's process (docs/external-agents.md,
 * "Environment"): its model SDK reaches the run's model bridge, its tracer the span receiver.
 */
export const BRIDGE_ENV_NAMES: readonly string[] = [
  'OPENAI_BASE_URL',
  'OPENAI_API_KEY',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_API_KEY',
  'TRACEPARENT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
];

/** The variable a server agentcheck starts (`http.start`) is given its port in. */
export const SERVER_PORT_VARIABLE = 'PORT';
