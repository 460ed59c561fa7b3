import { HTTP_URL_PATTERN } from '../../config/format-patterns.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { PROVIDER_NAMES } from '../providers/registry.js';
import { objectSchema } from './shared-schemas.js';

/** The keys of `agent.llm`; scenario and suite model overrides take the same ones. */
export const llmProperties = {
  provider: { enum: PROVIDER_NAMES },
  model: { type: 'string', minLength: 1 },
  parameters: objectSchema,
  // An http(s) endpoint: anything else fails every model call of every run, so it is refused at load.
  base_url: { type: 'string', pattern: HTTP_URL_PATTERN },
  timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
  max_retries: { type: 'integer', minimum: 0 },
} as const;

// One object, so the generated types name it once (LlmSpec) for the agent and an external agent.
export const llm = { type: 'object', required: ['provider', 'model'], additionalProperties: false, properties: llmProperties };
