import { BUILD_ID_PATTERN, MCP_SERVER_NAME_PATTERN } from '../../config/format-patterns.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { external } from './external-schema.js';
import { flow } from './flow-schema.js';
import { llm } from './llm-schema.js';
import { objectSchema, stringMap } from './shared-schemas.js';
import { planBlock, tool } from './tool-schema.js';

/** JSON Schema of the agent build format (docs/formats.md, docs/workflows.md, docs/skills.md). Unknown keys are errors. */

const mcpServer = {
  type: 'object',
  // Exactly one of command (stdio) and url (Streamable HTTP): validateMcps says which is wrong.
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: MCP_SERVER_NAME_PATTERN },
    command: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    url: { type: 'string', minLength: 1 },
    headers: stringMap,
    env_allow: { type: 'array', items: { type: 'string', minLength: 1 } },
    tools: { type: 'array', items: { type: 'string', minLength: 1 } },
    permission: { enum: ['allow', 'ask', 'deny'] },
    timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
    start_timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
  },
};

const skill = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    body: { type: 'string' },
    disable_model_invocation: { type: 'boolean' },
    ref: { type: 'string', minLength: 1 },
  },
};

/** The agent build (2.1). */
export const agentBuildSchema = {
  $id: 'agentcheck:agent-build',
  $defs: {
    planCall: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 },
        arguments: objectSchema,
        returns: { type: 'string', minLength: 1 },
        items: {},
        each_item: {
          type: 'object',
          required: ['item_name', 'tools'],
          additionalProperties: false,
          properties: {
            item_name: { type: 'string', minLength: 1 },
            tools: { type: 'array', items: { $ref: '#/$defs/planCall' } },
          },
        },
        condition: {},
        if: planBlock,
        else: planBlock,
      },
    },
  },
  type: 'object',
  // `agent` (with an optional `flow`) or `external`: validateBuild says which is missing.
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: BUILD_ID_PATTERN },
    revision: { type: 'integer' },
    agent: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 },
        instructions: { type: 'string' },
        llm,
        max_turns: { type: 'integer', minimum: 1 },
        permissions: {
          type: 'object',
          required: ['mode'],
          additionalProperties: false,
          properties: { mode: { enum: ['allow', 'ask', 'deny', 'allow_reads'] } },
        },
        commands: {
          type: 'object',
          required: ['allow'],
          additionalProperties: false,
          properties: { allow: { type: 'array', items: { type: 'string' } } },
        },
        tools: { type: 'array', items: tool },
        mcps: { type: 'array', items: mcpServer },
        skills: { type: 'array', items: skill },
      },
    },
    flow,
    external,
  },
} as const;
