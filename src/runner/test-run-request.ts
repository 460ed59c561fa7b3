import { resolve } from 'node:path';
import { unknownKeyMessage } from '../config/option-keys.js';
import { assertFormat, memoryLocator, type Locator } from '../config/assert-format.js';
import { collectConfigErrors, ConfigError, throwConfigErrors } from '../config/errors.js';
import { describeValue } from '../config/describe-value.js';
import { formatPath } from '../config/format-path.js';
import { checkNesting } from '../config/nesting-limit.js';
import { withoutUndefined } from '../config/without-undefined.js';
import type { McpServerPool } from '../engine/mcp/mcp-server-pool.js';
import { mcpServersProblem } from '../engine/mcp/mcp-servers-problem.js';
import type { Message } from '../engine/model/message.js';
import type { Model } from '../engine/model/model.js';
import type { ApprovalPolicy } from '../engine/permissions/approval-policy.js';
import type { ScriptEntry } from '../engine/providers/scripted.js';
import { BOTH_MODEL_AND_SCRIPT } from '../engine/check-invoke-options.js';
import { assertScript, checkScript } from '../engine/providers/script-schema.js';
import { deltaSchema } from '../engine/revision/delta.js';
import type { Revision } from '../engine/revision/types.js';
import type { SkillOptions } from '../engine/skills-delivery.js';
import { skillOptionFolderProblems } from '../engine/skill-option-folders.js';
import { validateToolName } from '../verdicts/tool-name.js';
import type { CassetteRun } from './cassettes/cassette-session.js';
import { workspaceFolderProblem } from './files/walk-files.js';
import type { HttpMock } from './mocks/http-mocks.js';
import { validateHttpMocks } from './mocks/validate-mocks.js';
import { scenarioProperties, skillsSchema } from './scenario/scenario-schema.js';
import { MAX_TIMEOUT_MS } from './suite/timeouts.js';
import { emptyMessageProblems } from './empty-messages.js';

/** What a test_run is asked to do (docs/cli.md, docs/mcp.md: the same keys everywhere). */
export interface TestRunRequest {
  /** An agent build file path, a loaded revision, or an inline build object. */
  agent: string | Revision | Record<string, unknown>;
  inputs: { messages: Message[]; context?: Record<string, unknown> };
  /** Put the workspace folder into the evidence (scenarios with `file` or custom checks). */
  workspaceEvidence?: boolean;
  /** `{set, remove}` applied in memory (never saved). */
  delta?: unknown;
  expectations?: { terminal_tool?: string; error_tokens?: string[] };
  approvals?: ApprovalPolicy;
  mocks?: { http?: HttpMock[] };
  /** A folder copied to a fresh temp workspace for the run. */
  workspace?: string;
  /** Scripted model entries; the embedded default model. */
  script?: readonly ScriptEntry[];
  model?: Model;
  skills?: SkillOptions;
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** MCP servers shared with other runs (a suite's); default: started for this run and stopped after it. */
  mcpServers?: McpServerPool;
  /** Record or replay this run's HTTP traffic (model calls, http tools) in a cassette file. */
  cassette?: CassetteRun;
  /** Wall-clock cap in ms: past it the run is aborted and ends `failed` (timed out). testRun defaults it to 120 s. */
  timeout_ms?: number;
}

/** Names the request in errors: `testRun at inputs.messages[0].role: ...`. */
export const REQUEST = 'testRun';

/** The keys of a request and how each is checked (`undefined` always means "not given"). */
const expectationsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    terminal_tool: scenarioProperties.expect.properties.terminal_tool,
    error_tokens: scenarioProperties.expect.properties.error_tokens,
  },
} as const;
const stringRecord = { type: 'object', additionalProperties: { type: 'string' } } as const;
const cassetteSchema = {
  type: 'object',
  required: ['mode', 'path', 'scenario', 'variant', 'repeat'],
  additionalProperties: false,
  properties: {
    mode: { enum: ['record', 'replay', 'auto'] },
    path: { type: 'string', minLength: 1 },
    scenario: { type: 'string' },
    variant: { type: 'string' },
    repeat: { type: 'integer', minimum: 0 },
  },
} as const;

/** The request's own format schemas, precompiled at build time with the others (scripts/precompile-schemas.mjs). */
export const REQUEST_SCHEMAS = [expectationsSchema, cassetteSchema];

type FieldCheck = (value: unknown, locate: Locator) => void;

const schemaCheck =
  (schema: object): FieldCheck =>
  (value, locate) =>
    assertFormat(schema, withoutUndefined(value), locate);
const instanceCheck =
  (what: string, test: (value: unknown) => boolean): FieldCheck =>
  (value, locate) => {
    if (!test(value)) throw locate([], `expected ${what}, got ${describeValue(value)}`);
  };
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const REQUEST_FIELDS: Record<keyof TestRunRequest, FieldCheck> = {
  agent: instanceCheck(
    'an agent build file path, a loaded revision or an inline build object',
    (value) => (typeof value === 'string' && value !== '') || isObject(value),
  ),
  inputs: (value, locate) => {
    schemaCheck(scenarioProperties.inputs)(value, locate);
    throwConfigErrors(emptyMessageProblems((value as TestRunRequest['inputs']).messages, (path, expected) => locate(['messages', ...path], expected)));
  },
  workspaceEvidence: instanceCheck('a boolean', (value) => typeof value === 'boolean'),
  delta: schemaCheck(deltaSchema),
  expectations: (value, locate) => {
    schemaCheck(expectationsSchema)(value, locate);
    const terminal = (value as { terminal_tool?: unknown }).terminal_tool;
    if (terminal !== undefined) validateToolName(terminal, ['terminal_tool'], locate);
  },
  approvals: schemaCheck(scenarioProperties.approvals),
  mocks: (value, locate) => {
    schemaCheck(scenarioProperties.mocks)(value, locate);
    const http = (value as TestRunRequest['mocks'])?.http;
    if (http) validateHttpMocks(http, (path, expected, atKey) => locate(['http', ...path], expected, atKey));
  },
  workspace: (value, locate) => {
    instanceCheck('a workspace folder path', (given) => typeof given === 'string' && given !== '')(value, locate);
    const folder = resolve(value as string);
    const problem = workspaceFolderProblem(folder);
    if (problem) throw locate([], problem);
  },
  script: assertScript,
  model: instanceCheck('a Model (an object with generate())', (value) => isObject(value) && typeof value.generate === 'function'),
  skills: (value, locate) => {
    schemaCheck(skillsSchema)(value, locate);
    throwConfigErrors(skillOptionFolderProblems(value as SkillOptions, locate));
  },
  env: schemaCheck(stringRecord),
  signal: instanceCheck('an AbortSignal', (value) => value instanceof AbortSignal),
  mcpServers: (value, locate) => {
    const problem = mcpServersProblem(value);
    if (problem) throw locate([], problem);
  },
  cassette: schemaCheck(cassetteSchema),
  timeout_ms: schemaCheck({ type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_MS }),
};

/** The fields that hold plain data (not a signal, a Model or a pool), held to the files' nesting limit. */
const DATA_FIELDS = new Set(['agent', 'inputs', 'delta', 'expectations', 'approvals', 'mocks', 'script', 'skills', 'env', 'cassette']);
const isLoadedRevision = (value: unknown) => isObject(value) && 'build' in value && 'hash' in value;

/**
 * Checks a library caller's request up front, with the schemas scenario files and the CLI use,
 * so bad input is a ConfigError naming the field (`testRun at inputs.messages[0].role: ...`),
 * never a TypeError from deep inside the run or a silently ignored value.
 */
export function validateTestRunRequest(request: unknown): asserts request is TestRunRequest {
  throwConfigErrors(testRunRequestProblems(request).problems);
}

/**
 * validateTestRunRequest's problems, every field's in one pass as the CLI and MCP list them, and
 * the request's script as the tool-name checks read it (checkScript: an entry with a format
 * problem left as `{}`, so it hides no other entry's tool name); no script when it is no list.
 */
export function testRunRequestProblems(request: unknown): { problems: ConfigError[]; script?: ScriptEntry[] } {
  if (!isObject(request))
    return { problems: [new ConfigError({ file: REQUEST }, `expected a request object {agent, inputs, ...}, got ${describeValue(request)}`)] };
  const problems: ConfigError[] = [];
  let script: ScriptEntry[] | undefined;
  const known = Object.keys(REQUEST_FIELDS);
  for (const key of Object.keys(request)) {
    if (!known.includes(key)) problems.push(new ConfigError({ file: REQUEST, path: formatPath([key]) }, unknownKeyMessage(key, known)));
  }
  for (const required of ['agent', 'inputs'] as const) {
    if (request[required] === undefined) problems.push(new ConfigError({ file: REQUEST }, `missing required key "${required}"`));
  }
  for (const [key, check] of Object.entries(REQUEST_FIELDS)) {
    const value = request[key];
    if (value === undefined) continue;
    const locate = memoryLocator(REQUEST, [key]);
    // Data nested deeper than a file may be is refused before any check walks it (a stack overflow).
    if (DATA_FIELDS.has(key) && !isLoadedRevision(value) && !collectConfigErrors(problems, () => checkNesting(value, locate))) continue;
    if (key !== 'script') collectConfigErrors(problems, () => check(value, locate));
    else {
      const checked = checkScript(value, locate);
      problems.push(...checked.problems);
      script = checked.entries;
    }
  }
  // Two ways to give the model: taking one would drop the other without a word.
  if (request.model !== undefined && request.script !== undefined) problems.push(new ConfigError({ file: REQUEST, path: 'script' }, BOTH_MODEL_AND_SCRIPT));
  return { problems, script };
}

/**
 * The problems of some request fields read from a file (a paused run's checkpoint), each located
 * at `file` and the field's path, with the checks testRun's request gets.
 */
export function requestFieldProblems(fields: Partial<Record<keyof TestRunRequest, unknown>>, file: string): ConfigError[] {
  const problems: ConfigError[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) collectConfigErrors(problems, () => REQUEST_FIELDS[key as keyof TestRunRequest](value, memoryLocator(file, [key])));
  }
  return problems;
}
