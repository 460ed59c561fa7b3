import { VERSION } from '../config/version.js';
import { parseKeyValueList } from './otlp-key-values.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Resource attributes the environment asks for: OTEL_RESOURCE_ATTRIBUTES, then OTEL_SERVICE_NAME
 * over its `service.name` (as the specification orders them). They are laid over agentcheck's own
 * (`service.name: agentcheck`, `service.version`). A malformed list is a ConfigError.
 */
export function resourceAttributesFromEnv(env: Env): Record<string, string> {
  const attributes = parseKeyValueList(
    env.OTEL_RESOURCE_ATTRIBUTES,
    'OTEL_RESOURCE_ATTRIBUTES',
    /^[^\s=,]+$/,
    'attribute name (expected key1=value1,key2=value2)',
  );
  const serviceName = env.OTEL_SERVICE_NAME?.trim();
  if (serviceName) attributes['service.name'] = serviceName;
  return attributes;
}

/** agentcheck's own resource attributes: collectors (Jaeger, Tempo, Phoenix, Langfuse) group spans by service. */
export function agentcheckResourceAttributes(): Record<string, string> {
  return { 'service.name': 'agentcheck', 'service.version': VERSION };
}
