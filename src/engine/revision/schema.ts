import { HTTP_URL_PATTERN, IO_KEY_PATTERN } from '../../config/format-patterns.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { PROVIDER_NAMES } from '../providers/registry.js';

/** JSON Schema of the agent build format (docs/formats.md, docs/workflows.md, docs/skills.md). Unknown keys are errors. */

const name = { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const objectSchema = { type: 'object' };

export const BUILTIN_NAMES = ['read_file', 'write_file', 'edit_file', 'list_dir', 'find_files', 'grep', 'run_command', 'echo'] as const;

/**
 * The tool kinds' implementation keys, exactly one per tool spec. The tool kind registry
 * (src/engine/tools/kinds/index.ts, TOOL_KINDS) is typed to have exactly these keys, so the two
 * cannot drift; the list sits here so validating a build does not load every tool implementation.
 */
export const IMPLEMENTATION_KEYS = ['builtin', 'http', 'command', 'chain', 'plan', 'returns'] as const;
export type ImplementationKey = (typeof IMPLEMENTATION_KEYS)[number];

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

const planBlock = {
  type: 'object',
  required: ['tools'],
  additionalProperties: false,
  properties: { tools: { type: 'array', items: { $ref: '#/$defs/planCall' } } },
};

const plan = {
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

const tool = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name,
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

const mcpServer = {
  type: 'object',
  // Exactly one of command (stdio) and url (Streamable HTTP): validateMcps says which is wrong.
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,32}$' },
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

const componentName = { type: 'string', pattern: '^[^:.]+$' };

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

// One object, so the generated types name it once (LlmSpec) for the agent and an external agent.
const llm = { type: 'object', required: ['provider', 'model'], additionalProperties: false, properties: llmProperties };

const externalTool = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name, description: { type: 'string' }, parameters: objectSchema },
};

const argv = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } };

/** An agent run outside the engine (docs/external-agents.md); exactly one of command and http. */
const external = {
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
            ready_path: { type: 'string', pattern: '^/' },
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
    id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' },
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
    flow: {
      type: 'object',
      required: ['entry_point', 'components'],
      additionalProperties: false,
      properties: {
        name: { type: 'string' },
        entry_point: { type: 'string' },
        components: { type: 'array', minItems: 1, items: component },
        routers: { type: 'array', items: router },
      },
    },
    external,
  },
} as const;
