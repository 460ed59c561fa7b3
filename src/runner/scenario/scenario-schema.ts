import { NOT_BLANK_PATTERN } from '../../config/format-patterns.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';
import { TYPE_WORDS } from '../../config/type-words.js';
import { llmProperties } from '../../engine/revision/llm-schema.js';
import { approvalAnswerSchema, approvalsSchema } from '../../engine/permissions/approvals-schema.js';
import { scriptSchema } from '../../engine/providers/script-schema.js';
import { skillsSchema } from '../../engine/skills-options-schema.js';

export { scriptSchema, soundScriptEntries, validateScript } from '../../engine/providers/script-schema.js';
export { skillsSchema } from '../../engine/skills-options-schema.js';

/** JSON Schema of scenario files (docs/formats.md, Scenario). Unknown keys are errors. */

const message = {
  type: 'object',
  required: ['role', 'content'],
  additionalProperties: false,
  properties: { role: { enum: ['user', 'assistant'] }, content: { type: 'string' } },
};

/** One answer of a mock: its own keys, or each item of its `responses`. */
const mockResponseProperties = {
  status: { type: 'integer', minimum: 100, maximum: 599 },
  json: {},
  body: { type: 'string' },
  headers: { type: 'object', additionalProperties: { type: 'string' } },
  delay_ms: { type: 'integer', minimum: 0, maximum: MAX_TIMER_MS },
} as const;

/** The methods a mock may name, in either case (matched case-insensitively): scenarios, --mocks and MCP test_run alike. */
export const MOCK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

const httpMock = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    method: { enum: MOCK_METHODS },
    url: { type: 'string', minLength: 1 },
    // What the request body must hold (docs/formats.md, Scenario, Mocks); checked by validateHttpMocks.
    match: { type: 'object', additionalProperties: false, minProperties: 1, properties: { json: {}, body: {} } },
    ...mockResponseProperties,
    responses: { type: 'array', minItems: 1, items: { type: 'object', additionalProperties: false, properties: mockResponseProperties } },
  },
};

/**
 * What an inline dataset row must be, in the words loadDataset says it too: a bad row in
 * `defaults`, met by the file's format and by each scenario's rows, is one problem (docs/formats.md).
 */
export const ROW_WORDS = 'a row: a mapping of variable names to values';

/** Every field a scenario (or `defaults`) may have. */
export const scenarioProperties = {
  name: { type: 'string', minLength: 1, pattern: NOT_BLANK_PATTERN },
  description: { type: 'string' },
  agent: { type: 'string', minLength: 1 },
  delta: { type: ['object', 'string'] },
  workspace: { type: 'string', minLength: 1 },
  inputs: {
    type: 'object',
    required: ['messages'],
    additionalProperties: false,
    properties: {
      messages: { type: 'array', minItems: 1, items: message },
      context: { type: 'object' },
    },
  },
  model: {
    type: 'object',
    additionalProperties: false,
    properties: { script: scriptSchema, allow_unknown_tools: { type: 'boolean' }, ...llmProperties },
  },
  approvals: approvalsSchema,
  mocks: {
    type: 'object',
    additionalProperties: false,
    properties: { http: { type: 'array', items: httpMock } },
  },
  // Answers to the run's successive approval pauses, each resumed from the pause's checkpoint.
  resume: {
    type: 'array',
    minItems: 1,
    items: { type: 'object', required: ['decision'], additionalProperties: false, properties: { decision: approvalAnswerSchema } },
  },
  expect: {
    type: 'object',
    additionalProperties: false,
    properties: {
      terminal_tool: { type: 'string', minLength: 1 },
      verdict: { enum: ['pass', 'incomplete', 'unconfirmed', 'failed'] },
      checks: { type: 'array', items: { type: 'object', minProperties: 1, maxProperties: 1 } },
      error_tokens: { type: 'array', items: { type: 'string', minLength: 1 } },
    },
  },
  tags: { type: 'array', items: { type: 'string', minLength: 1, pattern: NOT_BLANK_PATTERN } },
  expect_failure: { type: 'string', minLength: 1, pattern: NOT_BLANK_PATTERN },
  timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMER_MS },
  skip: { type: ['boolean', 'string'], minLength: 1, pattern: NOT_BLANK_PATTERN, [TYPE_WORDS]: 'true, false or a reason string' },
  // An agentcheck extension (docs/formats.md, Scenario): per-scenario skill delivery on top of the suite config's.
  skills: skillsSchema,
  // Expands the scenario over rows (docs/formats.md, "Datasets"); removed before the expanded scenario is validated.
  dataset: { type: ['string', 'array'], minLength: 1, minItems: 1, items: { type: 'object', [TYPE_WORDS]: ROW_WORDS } },
} as const;

/** One scenario, after defaults are merged. */
export const scenarioSchema = {
  $id: 'agentcheck:scenario',
  type: 'object',
  required: ['name', 'agent', 'inputs'],
  additionalProperties: false,
  properties: scenarioProperties,
};

/** The file: one scenario, or `scenarios: [...]` with shared `defaults`. */
export const scenarioFileSchema = {
  $id: 'agentcheck:scenario-file',
  type: 'object',
  additionalProperties: false,
  required: ['scenarios'],
  properties: {
    defaults: { type: 'object', additionalProperties: false, properties: scenarioProperties },
    scenarios: { type: 'array', minItems: 1, items: { type: 'object' } },
  },
};
