/**
 * Span names and attribute keys (docs/spans.md), following the OpenTelemetry GenAI
 * semantic conventions. Dependency-free so the engine, verdicts and runner share one source.
 */

export const SPAN = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool',
  approval: 'approval',
  invokeWorkflow: 'invoke_workflow',
  component: 'component',
  planStep: 'plan_step',
  chainStep: 'chain_step',
  /** A judge check's grading call: its own root, kept out of the agent's evidence. */
  evaluate: 'evaluate',
} as const;

export const ATTR = {
  operationName: 'gen_ai.operation.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cachedInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  responseId: 'gen_ai.response.id',
  workflowName: 'gen_ai.workflow.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  /** Chat span content, only when content capture is on (docs/spans.md). */
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  mcpMethod: 'mcp.method.name',
  evaluationName: 'gen_ai.evaluation.name',
  evaluationScore: 'gen_ai.evaluation.score.value',
  evaluationLabel: 'gen_ai.evaluation.score.label',
  evaluationExplanation: 'gen_ai.evaluation.explanation',

  resolvedConfig: 'agentcheck.resolved_config',
  skillsDelivered: 'agentcheck.skills.delivered',
  runKind: 'agentcheck.run_kind',
  stopReason: 'agentcheck.stop_reason',
  turn: 'agentcheck.turn',
  /**
   * Order in which the process started its tool calls: spans of one response's parallel calls
   * (and a parent and its nested calls) can share a start time, this never ties.
   */
  toolSeq: 'agentcheck.tool.seq',
  /** Who made the call: model, plan, chain or flow. */
  toolSource: 'agentcheck.tool.source',
  toolKind: 'agentcheck.tool.kind',
  toolReadOnly: 'agentcheck.tool.read_only',
  /** A run_command call whose program is in the agent's `commands.allow` list (set only when true). */
  toolCommandAllowed: 'agentcheck.tool.command_allowed',
  toolIsError: 'agentcheck.tool.is_error',
  /** Why a call was not executed: unknown_tool, invalid_arguments, denied, pending. */
  toolRefused: 'agentcheck.tool.refused',
  approvalDecision: 'agentcheck.approval.decision',
  flowName: 'agentcheck.flow.name',
  componentName: 'agentcheck.component.name',
  componentType: 'agentcheck.component.type',
  planStepPath: 'agentcheck.plan.step_path',
  /** if_else: which block ran (`if` or `else`). */
  planBranch: 'agentcheck.plan.branch',
  /** for_each: how many items it iterated. */
  planItems: 'agentcheck.plan.items',
  chainStepId: 'agentcheck.chain.step_id',
  chainAttempt: 'agentcheck.chain.attempt',
  /** human_input: approve, reject, response or pending. */
  humanInputDecision: 'agentcheck.human_input.decision',
  /** Root of a resumed run: the checkpoint it continued from. */
  resumedFrom: 'agentcheck.resume.checkpoint_id',
  /** Root span: processes the run started that were still alive at its end and were killed ("<pid> <command>"). */
  processesKilled: 'agentcheck.processes.killed',
  /** The request an http tool sent (execute_tool spans; secrets scrubbed): OpenTelemetry HTTP names where they exist. */
  httpRequestMethod: 'http.request.method',
  urlFull: 'url.full',
  httpResponseStatusCode: 'http.response.status_code',
  /** JSON object of the request headers, secret-named ones `[redacted]`. */
  httpRequestHeaders: 'agentcheck.http.request.headers',
  /** The request body text as sent (absent without a body). */
  httpRequestBody: 'agentcheck.http.request.body',
  /** A span the external agent exported itself (over OTLP or from its spans URL), mapped into these conventions. */
  externalExported: 'agentcheck.external.exported',
  /** The name the external agent gave the span before it was mapped (`ai.toolCall`, a tool's own name). */
  externalName: 'agentcheck.external.name',
  /** The place (from 0) of an external agent's span in the order its spans arrived; breaks start-time ties. */
  externalArrival: 'agentcheck.external.arrival',
  /** Root span: OTLP exports the run's receiver refused (`<status> <reason>`), so spans that never arrived are visible. */
  externalRejected: 'agentcheck.external.rejected',
  /** Root span of an external agent: tool calls its model asked for that it never answered ("<tool> (<call id>)"). */
  unansweredToolCalls: 'agentcheck.external.unanswered_tool_calls',
  /** Root span of an external agent: the `trace_id` its answer gave (its engine's own trace, read with spans_url). */
  externalTraceId: 'agentcheck.external.trace_id',
} as const;

/** `agentcheck.stop_reason`: why a run ended (docs/engine-loop.md, Stop reasons); the engine's StopReason is one of these. */
export const STOP_REASONS = ['end_turn', 'max_turns', 'paused', 'error', 'max_tokens', 'refusal', 'content_filter'] as const;

/**
 * `agentcheck.tool.kind`: how the called tool is implemented (a build's tool kinds, `skill` for
 * load_skill, `mcp`, `unknown` for a name the agent has no tool for, `external` for an external
 * agent's calls); the engine's tools are typed with these, so a span holds no other.
 */
export const TOOL_KIND_NAMES = ['builtin', 'http', 'command', 'chain', 'plan', 'returns', 'skill', 'mcp', 'unknown', 'external'] as const;
/** One of TOOL_KIND_NAMES. */
export type ToolKindName = (typeof TOOL_KIND_NAMES)[number];

/** The event a grading span records its result with (GenAI conventions). */
export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

// An MCP tool's server part: the shortest `mcp__<server>__` (docs/mcp.md, Tools).
const SERVER_PREFIX = /^mcp__.+?__/;

/** Prefixes stripped before tool names are compared (docs/verdicts.md, The test_run verdict). */
export function normalizeToolName(name: string): string {
  // Called for every span and call a check reads: most names need neither replacement.
  const bare = fullToolName(name);
  return bare.startsWith('mcp__') ? bare.replace(SERVER_PREFIX, '') : bare;
}

/** The name without `execute_tool ` only: an MCP tool keeps its `mcp__<server>__` prefix. */
export function fullToolName(name: string): string {
  return name.startsWith('execute_tool ') ? name.slice('execute_tool '.length) : name;
}

/** Whether the name (after `execute_tool `) starts with the `mcp__<server>__` prefix normalizeToolName strips. */
export function hasServerPrefix(name: string): boolean {
  return SERVER_PREFIX.test(fullToolName(name));
}

/** The server of an MCP tool's name (`notes` of `mcp__notes__write_note`); undefined for any other tool. */
export function toolServer(name: string): string | undefined {
  const prefix = SERVER_PREFIX.exec(fullToolName(name))?.[0];
  return prefix === undefined ? undefined : prefix.slice('mcp__'.length, -'__'.length);
}

/** Extra attributes the engine records for evidence (agentcheck namespace). */
export const EVIDENCE_ATTR = {
  /** Final flow state JSON on the root span: {status, context, ui_chat_log}. */
  flowState: 'agentcheck.flow.state',
  /** Output text of the invoke on the root span. */
  output: 'agentcheck.output',
  /** ok | error | denied | pending on execute_tool spans. */
  toolOutcome: 'agentcheck.tool.outcome',
} as const;

/** Span attributes for the optional token counts (cached input, reasoning output) a usage carries. */
export function usageDetailAttributes(usage: { cached_input_tokens?: number; reasoning_tokens?: number }): Record<string, number> {
  const attributes: Record<string, number> = {};
  if (usage.cached_input_tokens !== undefined) attributes[ATTR.cachedInputTokens] = usage.cached_input_tokens;
  if (usage.reasoning_tokens !== undefined) attributes[ATTR.reasoningTokens] = usage.reasoning_tokens;
  return attributes;
}

/** Every attribute key agentcheck itself writes: the one list `spans` checks are held against. */
export const EMITTED_ATTRIBUTE_KEYS: ReadonlySet<string> = new Set<string>([...Object.values(ATTR), ...Object.values(EVIDENCE_ATTR)]);

/** The namespaces whose keys agentcheck writes (a key there that it never writes is a typo). */
export const OWN_ATTRIBUTE_NAMESPACES = ['agentcheck.', 'gen_ai.'] as const;

/** What a `chat` span records of the model's answer: response model and id, finish reason, usage. */
export function chatResponseAttributes(
  response: {
    responseModel?: string;
    responseId?: string;
    finishReason: { raw: string };
    usage: { input_tokens: number; output_tokens: number; cached_input_tokens?: number; reasoning_tokens?: number };
  },
  modelId: string,
): Record<string, string | number | string[]> {
  return {
    [ATTR.responseModel]: response.responseModel ?? modelId,
    [ATTR.finishReasons]: [response.finishReason.raw],
    [ATTR.inputTokens]: response.usage.input_tokens,
    [ATTR.outputTokens]: response.usage.output_tokens,
    ...usageDetailAttributes(response.usage),
    ...(response.responseId === undefined ? {} : { [ATTR.responseId]: response.responseId }),
  };
}
