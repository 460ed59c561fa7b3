import { COMPONENT_NAME_PATTERN, IO_KEY_PATTERN } from '../../config/format-patterns.js';
import { stringMap } from './shared-schemas.js';
import { plan } from './tool-schema.js';

/** JSON Schema of an agent build's `flow` (docs/workflows.md): components, routers and their inputs. */

const ioKey = {
  type: ['string', 'object'],
  pattern: IO_KEY_PATTERN,
  properties: {
    from: { type: 'string', pattern: IO_KEY_PATTERN },
    as: { type: 'string', minLength: 1 },
    optional: { type: 'boolean' },
    literal: {},
  },
  additionalProperties: false,
};

const componentName = { type: 'string', pattern: COMPONENT_NAME_PATTERN };

const component = {
  type: 'object',
  required: ['name', 'type'],
  additionalProperties: false,
  properties: {
    name: componentName,
    type: { enum: ['agent', 'deterministic_step', 'human_input', 'end', 'plan'] },
    tool_name: { type: 'string' },
    inputs: { type: 'array', items: ioKey },
    toolset: { type: 'array', items: { type: 'string' } },
    instructions: { type: 'string' },
    prompt: { type: 'string' },
    max_turns: { type: 'integer', minimum: 1 },
    plan,
  },
};

const router = {
  type: 'object',
  required: ['from'],
  additionalProperties: false,
  properties: {
    from: { type: 'string' },
    to: { type: 'string' },
    condition: {
      type: 'object',
      required: ['input', 'routes'],
      additionalProperties: false,
      properties: { input: ioKey, routes: { ...stringMap, minProperties: 1 } },
    },
  },
};

export const flow = {
  type: 'object',
  required: ['entry_point', 'components'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    entry_point: { type: 'string' },
    components: { type: 'array', minItems: 1, items: component },
    routers: { type: 'array', items: router },
  },
};
