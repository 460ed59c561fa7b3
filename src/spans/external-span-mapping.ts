import { ATTR, SPAN } from './conventions.js';
import type { AttributeValue, SpanRecord } from './span-record.js';

// Attribute names of the conventions an external agent's spans may follow (docs/spans.md,
// Spans of external agents). Vercel AI SDK telemetry (ai@4-6): one `ai.toolCall` span per tool
// execution, one `ai.generateText.doGenerate` / `ai.streamText.doStream` span per model call.
const AI_SDK = {
  operationId: 'ai.operationId',
  toolName: 'ai.toolCall.name',
  toolCallId: 'ai.toolCall.id',
  toolArgs: 'ai.toolCall.args',
  toolResult: 'ai.toolCall.result',
  provider: 'ai.model.provider',
  modelId: 'ai.model.id',
  responseModel: 'ai.response.model',
  responseId: 'ai.response.id',
  finishReason: 'ai.response.finishReason',
  // ai@5 and later; ai@4 wrote promptTokens / completionTokens.
  inputTokens: ['ai.usage.inputTokens', 'ai.usage.promptTokens'],
  outputTokens: ['ai.usage.outputTokens', 'ai.usage.completionTokens'],
} as const;
const AI_SDK_TOOL_CALL = 'ai.toolCall';
const AI_SDK_MODEL_CALLS = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.generateObject.doGenerate', 'ai.streamObject.doStream']);

// OpenInference (Arize Phoenix): `openinference.span.kind = TOOL` spans.
const OPENINFERENCE = {
  spanKind: 'openinference.span.kind',
  toolName: 'tool.name',
  toolCallId: 'tool_call.id',
  input: 'input.value',
  output: 'output.value',
} as const;

// Older GenAI instrumentations name the provider gen_ai.system.
const GEN_AI_SYSTEM = 'gen_ai.system';
const EXCEPTION_EVENT = 'exception';

/**
 * Maps one span an external agent exported into agentcheck's conventions (docs/spans.md): a
 * Vercel AI SDK `ai.toolCall` span or an OpenInference TOOL span becomes an `execute_tool`
 * span, an AI SDK model call a `chat` span; GenAI-convention spans are ours already. The
 * agent's own attributes are kept beside ours, and every span is marked `agentcheck.external.exported`.
 * Pure: ids, parents and times are left as they came (the runner joins them to the run).
 */
export function mapExternalSpan(span: SpanRecord): SpanRecord {
  const mapped = aiSdkToolCall(span) ?? openInferenceTool(span) ?? aiSdkModelCall(span) ?? { ...span, attributes: { ...span.attributes } };
  mapped.attributes[ATTR.externalExported] = true;
  if (mapped.name !== span.name) mapped.attributes[ATTR.externalName] = span.name;
  return mapped;
}

function aiSdkToolCall(span: SpanRecord): SpanRecord | null {
  if (text(span, AI_SDK.operationId) !== AI_SDK_TOOL_CALL && span.name !== AI_SDK_TOOL_CALL) return null;
  const name = text(span, AI_SDK.toolName);
  if (name === undefined) return null;
  return toolSpan(span, { name, callId: text(span, AI_SDK.toolCallId), args: text(span, AI_SDK.toolArgs), result: text(span, AI_SDK.toolResult) });
}

function openInferenceTool(span: SpanRecord): SpanRecord | null {
  if (text(span, OPENINFERENCE.spanKind)?.toUpperCase() !== 'TOOL') return null;
  return toolSpan(span, {
    name: text(span, OPENINFERENCE.toolName) ?? span.name,
    callId: text(span, OPENINFERENCE.toolCallId),
    args: text(span, OPENINFERENCE.input),
    result: text(span, OPENINFERENCE.output),
  });
}

/** An execute_tool span (docs/spans.md) for one tool execution; a failed one carries error.type. */
function toolSpan(span: SpanRecord, call: { name: string; callId?: string; args?: string; result?: string }): SpanRecord {
  const attributes: Record<string, AttributeValue> = {
    ...span.attributes,
    [ATTR.operationName]: SPAN.executeTool,
    [ATTR.toolName]: call.name,
    [ATTR.toolType]: 'function',
  };
  if (call.callId !== undefined) attributes[ATTR.toolCallId] = call.callId;
  if (call.args !== undefined) attributes[ATTR.toolArguments] = call.args;
  if (call.result !== undefined && span.status !== 'error') attributes[ATTR.toolResult] = call.result;
  const mapped: SpanRecord = { ...span, name: `${SPAN.executeTool} ${call.name}`, attributes };
  if (span.status === 'error') {
    const exception = span.events?.find((event) => event.name === EXCEPTION_EVENT)?.attributes;
    const type = exception?.['exception.type'];
    attributes[ATTR.errorType] = typeof type === 'string' && type ? type : 'error';
    const message = exception?.['exception.message'];
    if (mapped.status_message === undefined && typeof message === 'string') mapped.status_message = message;
  }
  return mapped;
}

function aiSdkModelCall(span: SpanRecord): SpanRecord | null {
  if (!AI_SDK_MODEL_CALLS.has(text(span, AI_SDK.operationId) ?? span.name)) return null;
  const model = text(span, ATTR.requestModel) ?? text(span, AI_SDK.modelId) ?? 'unknown';
  const attributes: Record<string, AttributeValue> = { ...span.attributes, [ATTR.operationName]: SPAN.chat, [ATTR.requestModel]: model };
  const provider = text(span, ATTR.providerName) ?? text(span, GEN_AI_SYSTEM) ?? text(span, AI_SDK.provider);
  if (provider !== undefined) attributes[ATTR.providerName] = provider;
  const responseModel = text(span, ATTR.responseModel) ?? text(span, AI_SDK.responseModel);
  if (responseModel !== undefined) attributes[ATTR.responseModel] = responseModel;
  const responseId = text(span, ATTR.responseId) ?? text(span, AI_SDK.responseId);
  if (responseId !== undefined) attributes[ATTR.responseId] = responseId;
  const finish = text(span, AI_SDK.finishReason);
  if (attributes[ATTR.finishReasons] === undefined && finish !== undefined) attributes[ATTR.finishReasons] = [finish];
  const input = count(span, [ATTR.inputTokens, ...AI_SDK.inputTokens]);
  if (input !== undefined) attributes[ATTR.inputTokens] = input;
  const output = count(span, [ATTR.outputTokens, ...AI_SDK.outputTokens]);
  if (output !== undefined) attributes[ATTR.outputTokens] = output;
  return { ...span, name: `${SPAN.chat} ${model}`, attributes };
}

function text(span: SpanRecord, key: string): string | undefined {
  const value = span.attributes[key];
  return typeof value === 'string' ? value : undefined;
}

function count(span: SpanRecord, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = span.attributes[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}
