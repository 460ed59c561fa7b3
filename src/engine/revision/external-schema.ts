import { READY_PATH_PATTERN } from '../../config/format-patterns.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { llm } from './llm-schema.js';
import { objectSchema, stringMap, toolName } from './shared-schemas.js';

const externalTool = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: toolName, description: { type: 'string' }, parameters: objectSchema },
};

const argv = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } };

/** An agent run outside the engine (docs/external-agents.md); exactly one of command and http. */
export const external = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    llm,
    max_turns: { type: 'integer', minimum: 1 },
    tools: { type: 'array', items: externalTool },
    config: objectSchema,
    command: argv,
    http: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', minLength: 1 },
        headers: stringMap,
        start: {
          type: 'object',
          required: ['command'],
          additionalProperties: false,
          properties: {
            command: argv,
            ready_path: { type: 'string', pattern: READY_PATH_PATTERN },
            timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
          },
        },
        spans_url: { type: 'string', minLength: 1 },
      },
    },
    env: stringMap,
    timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
  },
};
