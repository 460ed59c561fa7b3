import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import { assertFormat, memoryLocator, type Locator } from '../config/assert-format.js';
import { ConfigError, RunError } from '../config/errors.js';
import { describeValue } from '../config/json-schema.js';
import { invoke, type InvokeOptions } from '../engine/invoke.js';
import { INSIDE_RUN_ENV } from '../engine/mcp/mcp-toolset.js';
import type { McpServerPool } from '../engine/mcp/mcp-server-pool.js';
import type { Message } from '../engine/model/message.js';
import type { Model } from '../engine/model/model.js';
import type { ApprovalPolicy } from '../engine/permissions/approval-policy.js';
import type { ScriptEntry } from '../engine/providers/scripted.js';
import type { ResolvedConfig } from '../engine/resolve-config.js';
import { applyDelta, deltaSchema, type DeltaRevision } from '../engine/revision/delta.js';
import { loadAgentBuild, revisionFromValue } from '../engine/revision/load-build.js';
import type { Revision } from '../engine/revision/types.js';
import type { SkillOptions } from '../engine/skills-delivery.js';
import type { Turn } from '../engine/turn.js';
import { FolderWorkspace } from '../engine/workspace/folder-workspace.js';
import type { Workspace } from '../engine/workspace/workspace.js';
import type { SpanRecord } from '../spans/span-record.js';
import { installTracing } from '../spans/tracing.js';
import { buildEvidence, scoreTestRun, validateToolName, type Evidence } from '../verdicts/index.js';
import { CassetteSession, type CassetteOutcome, type CassetteRun } from './cassettes/cassette-session.js';
import { withHttpMocks, type HttpMock, type MockScope } from './mocks/http-mocks.js';
import { checkApprovalTools } from './scenario/load-scenario-file.js';
import { scenarioProperties, scriptSchema, skillsSchema, validateScript } from './scenario/scenario-schema.js';
import { isDirectory } from './files/walk-files.js';
import { agentSecrets } from './secrets/run-secrets.js';

/** The test_run contract (DESIGN.md section 5). */
export interface TestRunResult {
  output: string;
  tools: Array<{ name: string; called: number; returned: number; errors: number }>;
  approvals: Array<{ tool: string; decision: 'approve' | 'deny' | 'pending' }>;
  resolved: ResolvedConfig;
  trace_id: string;
  stop_reason: Turn['stop_reason'];
  verdict: 'pass' | 'incomplete' | 'unconfirmed' | 'failed';
  verdict_reason: string;
}

export interface TestRunRequest {
  /** An agent build file path, a loaded revision, or an inline build object. */
  agent: string | Revision | Record<string, unknown>;
  inputs: { messages: Message[]; context?: Record<string, unknown> };
  /** Put the workspace folder into the evidence (scenarios with `file` checks). */
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
}

/** Everything one run leaves behind, for the scenario runner's checks and reports. */
export interface TestRunRecord {
  result: TestRunResult;
  turn: Turn;
  spans: SpanRecord[];
  /** Evidence built from the spans, for checks. */
  evidence: Evidence;
  revision: DeltaRevision;
  /** The run's workspace, still on disk until the caller disposes it. */
  workspace: Workspace;
  /** Requests no scenario mock answered (`METHOD URL`). */
  unmatched: string[];
  /** What the run did with its cassette (when it had one). */
  cassette?: CassetteOutcome;
}

const insideTestRun = new AsyncLocalStorage<true>();

/**
 * Applies the delta to an in-memory copy of the revision, performs exactly one batch invoke
 * and scores it from its spans. The agent file is never written.
 */
export async function testRun(request: TestRunRequest): Promise<TestRunResult> {
  // The library entry validates its request; the suite runner and the CLI hand over data their
  // loaders already validated.
  validateTestRunRequest(request);
  const record = await executeTestRun(request);
  await record.workspace.dispose();
  return record.result;
}

/** testRun that keeps the workspace and spans for checks (the scenario runner's entry). */
export async function executeTestRun(request: TestRunRequest, revisionOverride?: DeltaRevision): Promise<TestRunRecord> {
  // The env marker carries the guard across processes: an MCP server a run started (even
  // `agentcheck mcp` itself) is inside that run.
  if (insideTestRun.getStore() || process.env[INSIDE_RUN_ENV]) {
    throw new RunError('RECURSION_GUARD', 'test_run was called from inside a test_run; runs nest at most one level deep');
  }
  const revision = revisionOverride ?? applyDelta(toRevision(request.agent), request.delta ?? {}, `${REQUEST} delta`);
  // A revision made from the request is the only one the approvals can mean. A caller that
  // passes its own (a suite, with variants) checked them where it loaded them.
  if (!revisionOverride && request.approvals?.tools) {
    checkApprovalTools(request.approvals.tools, [revision.build], memoryLocator(REQUEST, ['approvals', 'tools']));
  }
  const workspace = request.workspace ? FolderWorkspace.copyOf(request.workspace) : FolderWorkspace.temp();
  // Copied before the run, so a workspace that cannot be copied fails the run itself (naming
  // the file in the source folder) instead of failing every workspace tool the agent calls.
  if (request.workspace) await workspace.root();
  const { tracer, store } = installTracing();
  const cassette = request.cassette ? new CassetteSession(request.cassette, request.env ?? process.env, agentSecrets(revision.build.agent)) : undefined;
  const scope: MockScope = { mocks: request.mocks?.http ?? [], passthroughOrigins: providerOrigins(revision, request.env), unmatched: [], cassette };
  const options: InvokeOptions = {
    tracer,
    workspace,
    script: request.script,
    model: request.model,
    approvals: request.approvals,
    skills: request.skills,
    env: offlineEnv(request, scope.passthroughOrigins),
    signal: request.signal,
    mcpServers: request.mcpServers,
  };
  const run = () => insideTestRun.run(true, () => invoke(revision, request.inputs, options));
  // A scenario that declares mocks (even an empty list) gets no live HTTP: unmatched requests are errors.
  const turn = request.mocks?.http !== undefined || cassette ? await withHttpMocks(scope, run) : await run();
  // A run cut short (timeout, interrupt) would leave a cassette of a different run: keep the old one.
  if (cassette && !request.signal?.aborted) await cassette.save();
  const spans = store.take(turn.trace_id);
  // One evidence for the verdict and the scenario's checks.
  const evidence = buildEvidence({
    spans,
    transcript: turn.messages,
    output: turn.output,
    workspaceDir: request.workspaceEvidence ? await workspace.root() : undefined,
    errorTokens: request.expectations?.error_tokens,
  });
  const score = scoreTestRun({
    spans,
    stop_reason: turn.stop_reason,
    error: turn.error,
    terminal_tool: request.expectations?.terminal_tool,
    error_tokens: request.expectations?.error_tokens,
    evidence,
  });
  const result: TestRunResult = {
    output: turn.output,
    tools: score.tools,
    approvals: score.approvals,
    resolved: score.resolved as ResolvedConfig,
    trace_id: turn.trace_id,
    stop_reason: turn.stop_reason,
    verdict: score.verdict,
    verdict_reason: score.verdict_reason,
  };
  return { result, turn, spans, evidence, revision, workspace, unmatched: scope.unmatched, cassette: cassette?.outcome() };
}

function toRevision(agent: TestRunRequest['agent']): Revision {
  if (typeof agent === 'string') return loadAgentBuild(agent);
  if ('build' in agent && 'hash' in agent) return agent as Revision;
  return revisionFromValue(agent, `${REQUEST} agent`);
}

/** Names the request in errors: `testRun at inputs.messages[0].role: ...`. */
const REQUEST = 'testRun';

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

type FieldCheck = (value: unknown, locate: Locator) => void;

const schemaCheck = (schema: object): FieldCheck => (value, locate) => assertFormat(schema, withoutUndefined(value), locate);
const instanceCheck = (what: string, test: (value: unknown) => boolean): FieldCheck => (value, locate) => {
  if (!test(value)) throw locate([], `expected ${what}, got ${describeValue(value)}`);
};
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const REQUEST_FIELDS: Record<keyof TestRunRequest, FieldCheck> = {
  agent: instanceCheck('an agent build file path, a loaded revision or an inline build object', (value) => (typeof value === 'string' && value !== '') || isObject(value)),
  inputs: schemaCheck(scenarioProperties.inputs),
  workspaceEvidence: instanceCheck('a boolean', (value) => typeof value === 'boolean'),
  delta: schemaCheck(deltaSchema),
  expectations: (value, locate) => {
    schemaCheck(expectationsSchema)(value, locate);
    const terminal = (value as { terminal_tool?: unknown }).terminal_tool;
    if (terminal !== undefined) validateToolName(terminal, ['terminal_tool'], locate);
  },
  approvals: schemaCheck(scenarioProperties.approvals),
  mocks: schemaCheck(scenarioProperties.mocks),
  workspace: (value, locate) => {
    instanceCheck('a workspace folder path', (given) => typeof given === 'string' && given !== '')(value, locate);
    const folder = resolve(value as string);
    // A missing folder would otherwise run on an empty workspace and could even pass.
    if (!isDirectory(folder)) throw locate([], `workspace folder not found: ${folder}`);
  },
  script: (value, locate) => {
    schemaCheck(scriptSchema)(value, locate);
    validateScript(value as ScriptEntry[], locate);
  },
  model: instanceCheck('a Model (an object with generate())', (value) => isObject(value) && typeof value.generate === 'function'),
  skills: schemaCheck(skillsSchema),
  env: schemaCheck(stringRecord),
  signal: instanceCheck('an AbortSignal', (value) => value instanceof AbortSignal),
  mcpServers: instanceCheck('an McpServerPool', isObject),
  cassette: schemaCheck(cassetteSchema),
};

/**
 * Checks a library caller's request up front, with the schemas scenario files and the CLI use,
 * so bad input is a ConfigError naming the field (`testRun at inputs.messages[0].role: ...`),
 * never a TypeError from deep inside the run or a silently ignored value.
 */
export function validateTestRunRequest(request: unknown): asserts request is TestRunRequest {
  if (!isObject(request)) throw new ConfigError({ file: REQUEST }, `expected a request object {agent, inputs, ...}, got ${describeValue(request)}`);
  const known = Object.keys(REQUEST_FIELDS);
  for (const key of Object.keys(request)) {
    if (!known.includes(key)) throw new ConfigError({ file: REQUEST, path: key }, `unknown key "${key}"; expected one of: ${known.join(', ')}`);
  }
  for (const required of ['agent', 'inputs'] as const) {
    if (request[required] === undefined) throw new ConfigError({ file: REQUEST }, `missing required key "${required}"`);
  }
  for (const [key, check] of Object.entries(REQUEST_FIELDS)) {
    const value = request[key];
    if (value !== undefined) check(value, memoryLocator(REQUEST, [key]));
  }
}

/** A copy of plain data without keys whose value is undefined (callers spread optional fields). */
function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (!isObject(value) || (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = withoutUndefined(item);
  return out;
}

/** Stands in for a missing API key when no request reaches a real provider. */
const REPLAY_PLACEHOLDER_KEY = 'agentcheck-cassette-replay';

/**
 * A run whose model requests never leave the process (a cassette replay, or scenario mocks
 * that answer the provider's endpoint) needs no real key, but the providers refuse to build a
 * request without one; so CI can run such suites without secrets, a missing key is filled with
 * a placeholder that is never sent anywhere.
 */
function offlineEnv(request: TestRunRequest, providers: readonly string[]): TestRunRequest['env'] {
  const mocked = (request.mocks?.http ?? []).some((mock) => providers.includes(originOf(mock.url)));
  if (request.cassette?.mode !== 'replay' && !mocked) return request.env;
  const env = request.env ?? process.env;
  return {
    ...env,
    OPENAI_API_KEY: env.OPENAI_API_KEY || REPLAY_PLACEHOLDER_KEY,
    ANTHROPIC_API_KEY: env.ANTHROPIC_API_KEY || REPLAY_PLACEHOLDER_KEY,
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** A real model endpoint's origin passes through scenario mocks. */
function providerOrigins(revision: Revision, env: TestRunRequest['env'] = process.env): string[] {
  const llm = revision.build.agent.llm;
  if (!llm || llm.provider === 'scripted') return [];
  const fallback = llm.provider === 'openai'
    ? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'
    : env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
  try {
    return [new URL(llm.base_url ?? fallback).origin];
  } catch {
    return [];
  }
}
