import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { objectSchema, stringMap, toolName } from './shared-schemas.js';

/** JSON Schema of a tool spec of the agent build (docs/formats.md): its kinds, a chain, a plan. */

export const BUILTIN_NAMES = ['read_file', 'write_file', 'edit_file', 'list_dir', 'find_files', 'grep', 'run_command', 'echo'] as const;

/**
 * The tool kinds' implementation keys, exactly one per tool spec. The tool kind registry
 * (src/engine/tools/kinds/index.ts, TOOL_KINDS) is typed to have exactly these keys, so the two
 * cannot drift; the list sits here so validating a build does not load every tool implementation.
 */
export const IMPLEMENTATION_KEYS = ['builtin', 'http', 'command', 'chain', 'plan', 'returns'] as const;
export type ImplementationKey = (typeof IMPLEMENTATION_KEYS)[number];

/** A block of a plan's calls; `#/$defs/planCall` resolves in agentBuildSchema (schema.ts), the root. */
export const planBlock = {
  type: 'object',
  required: ['tools'],
  additionalProperties: false,
  properties: { tools: { type: 'array', items: { $ref: '#/$defs/planCall' } } },
};

export const plan = {
  type: 'object',
  required: ['steps'],
  additionalProperties: false,
  properties: {
    constants: objectSchema,
    steps: { type: 'array', items: planBlock },
    max_iterations: { type: 'integer', minimum: 1 },
  },
};

const chainStep = {
  type: 'object',
  required: ['tool'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1 },
    tool: { type: 'string', minLength: 1 },
    inputs: objectSchema,
    on_success: {
      type: 'object',
      additionalProperties: false,
      properties: { map_outputs: stringMap, next: { type: 'string' } },
    },
    on_failure: {
      type: 'object',
      additionalProperties: false,
      properties: {
        action: { enum: ['stop', 'retry', 'continue'] },
        max_retries: { type: 'integer', minimum: 0 },
        backoff_ms: { type: 'integer', minimum: 0, maximum: MAX_TIMER_MS },
        continue_on_max_retries: { type: 'boolean' },
        next: { type: 'string' },
      },
    },
  },
};

export const tool = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: toolName,
    description: { type: 'string' },
    parameters: objectSchema,
    read_only: { type: 'boolean' },
    permission: { enum: ['allow', 'ask', 'deny'] },
    builtin: { enum: [...BUILTIN_NAMES] },
    http: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'get', 'post', 'put', 'patch', 'delete', 'head'] },
        url: { type: 'string', minLength: 1 },
        headers: stringMap,
        body: {},
        timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
      },
    },
    command: {
      type: 'object',
      required: ['argv'],
      additionalProperties: false,
      properties: {
        argv: { type: 'array', minItems: 1, items: { type: 'string' } },
        timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
        allow_env: { type: 'array', items: { type: 'string' } },
        max_output_bytes: { type: 'integer', minimum: 1 },
        refuse_option_args: { type: 'boolean' },
      },
    },
    chain: {
      type: 'object',
      required: ['steps'],
      additionalProperties: false,
      properties: {
        name: { type: 'string' },
        steps: { type: 'array', minItems: 1, items: chainStep },
        max_steps: { type: 'integer', minimum: 1 },
      },
    },
    plan,
    returns: {},
  },
};
