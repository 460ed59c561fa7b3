import type { Message, ToolResultMessage } from '../model/message.js';
import type { FinishReason, Model, ModelRequest, ModelResponse, ModelToolCall, ToolDefinition } from '../model/model.js';
import { httpModelOptions, type EndpointSpec, type HttpModelOptions } from './http-model-options.js';
import { postToEndpoint } from './post-to-endpoint.js';
import type { JsonReply } from './http-retry.js';
import { bodyParameters, PROVIDER_OWNED_KEYS, sentParameters } from './parameter-specs.js';
import type { ProviderEntry } from './provider-entry.js';
import { asRecord, detailCount, finishReasonFrom, tokens } from './response-fields.js';

const ENDPOINT: EndpointSpec = {
  provider: 'anthropic',
  baseUrlEnv: 'ANTHROPIC_BASE_URL',
  defaultBaseUrl: 'https://api.anthropic.com',
  path: '/v1/messages',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
};

const API_VERSION = '2023-06-01';

const PROVIDER = 'anthropic';
/** Content blocks of extended thinking: with tools, the API wants them back unchanged, before tool_use. */
const THINKING_BLOCKS = new Set(['thinking', 'redacted_thinking']);

type ApiMessage = { role: 'user' | 'assistant'; content: string | Record<string, unknown>[] };

/** A model behind the Anthropic Messages API. */
export class AnthropicMessagesModel implements Model {
  readonly provider = 'anthropic';
  readonly modelId: string;
  private readonly options: HttpModelOptions;

  constructor(options: HttpModelOptions) {
    this.options = options;
    this.modelId = options.model;
  }

  /** Sends one Messages request and maps its content blocks to a ModelResponse. */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    const reply = await postToEndpoint(
      {
        endpoint: ENDPOINT,
        path: ENDPOINT.path,
        body: this.requestBody(request),
        signal: request.signal,
        auth: (apiKey) => ({ 'x-api-key': apiKey }),
        headers: { 'anthropic-version': API_VERSION },
      },
      this.options,
    );
    return mapResponse(reply);
  }

  private requestBody(request: ModelRequest): Record<string, unknown> {
    const body: Record<string, unknown> = { model: this.modelId };
    if (request.system !== '') body.system = request.system;
    body.messages = toApiMessages(request.messages);
    if (request.tools.length > 0) body.tools = request.tools.map(toApiTool);
    // The API requires max_tokens: sentParameters adds the default the resolved config shows too.
    return { ...body, ...bodyParameters(sentParameters(this.provider, request.parameters), PROVIDER_OWNED_KEYS.anthropic) };
  }
}

function toApiMessages(messages: readonly Message[]): ApiMessage[] {
  const out: ApiMessage[] = [];
  let pendingResults: ToolResultMessage[] = [];
  const flushResults = () => {
    // The API wants all results of one assistant turn in a single user message.
    if (pendingResults.length > 0) out.push({ role: 'user', content: pendingResults.map(toResultBlock) });
    pendingResults = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      pendingResults.push(message);
      continue;
    }
    flushResults();
    if (message.role === 'user') {
      out.push({ role: 'user', content: message.content });
      continue;
    }
    // A turn with thinking goes back exactly as it came (signatures included): with tools, the
    // API rejects a turn whose thinking was dropped, changed or moved.
    if (message.provider_content?.provider === PROVIDER) {
      out.push({ role: 'assistant', content: message.provider_content.items });
      continue;
    }
    const blocks: Record<string, unknown>[] = [];
    // Empty text blocks are rejected by the API, so text is sent only when there is some.
    if (message.content !== '') blocks.push({ type: 'text', text: message.content });
    for (const call of message.tool_calls ?? []) {
      blocks.push({ type: 'tool_use', id: call.tool_call_id, name: call.tool_name, input: call.input ?? {} });
    }
    // An assistant turn with neither text nor calls has nothing the API would accept; it carries no information.
    if (blocks.length > 0) out.push({ role: 'assistant', content: blocks });
  }
  flushResults();
  return out;
}

function toResultBlock(message: ToolResultMessage): Record<string, unknown> {
  return { type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content, is_error: message.is_error };
}

function toApiTool(tool: ToolDefinition): Record<string, unknown> {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

function mapResponse(reply: JsonReply): ModelResponse {
  const body = asRecord(reply.json);
  if (!Array.isArray(body.content)) throw reply.malformed('response has no content array');
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let thinking = false;
  for (const entry of body.content) {
    const block = asRecord(entry);
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    if (typeof block.type === 'string' && THINKING_BLOCKS.has(block.type)) thinking = true;
    if (block.type === 'tool_use') {
      if (typeof block.id !== 'string' || typeof block.name !== 'string') throw reply.malformed('a tool_use block lacks id or name');
      toolCalls.push({ id: block.id, name: block.name, args: block.input ?? {} });
    }
  }
  const usage = asRecord(body.usage);
  return {
    text,
    toolCalls,
    finishReason: finishReasonOf(body.stop_reason),
    usage: {
      // Cached prompt tokens are billed input too but reported apart; summing keeps runs comparable.
      input_tokens: tokens(usage.input_tokens) + tokens(usage.cache_creation_input_tokens) + tokens(usage.cache_read_input_tokens),
      output_tokens: tokens(usage.output_tokens),
      ...detailCount('cached_input_tokens', usage.cache_read_input_tokens),
    },
    responseModel: typeof body.model === 'string' ? body.model : undefined,
    responseId: typeof body.id === 'string' ? body.id : undefined,
    // Kept as the parsed objects: re-serialised, they are the same JSON the API sent.
    ...(thinking ? { providerContent: { provider: PROVIDER, items: body.content.map(asRecord) } } : {}),
  };
}

const FINISH = new Map<string, FinishReason['unified']>([
  ['end_turn', 'stop'],
  ['stop_sequence', 'stop'],
  ['tool_use', 'tool_calls'],
  ['max_tokens', 'length'],
  ['model_context_window_exceeded', 'length'],
  ['refusal', 'refusal'],
  ['pause_turn', 'pause'],
]);

function finishReasonOf(raw: unknown): FinishReason {
  return finishReasonFrom(FINISH, raw);
}

/** The `anthropic` registry entry: the Messages API, `ANTHROPIC_BASE_URL` / `ANTHROPIC_API_KEY`. */
export const anthropicProvider: ProviderEntry = {
  name: 'anthropic',
  endpoint: ENDPOINT,
  create: (llm, options) => new AnthropicMessagesModel(httpModelOptions(llm, options)),
  // `{name, description, input_schema}`
  matchTool(tool) {
    if (!('input_schema' in tool)) return undefined;
    const { input_schema, ...rest } = tool;
    return { ...rest, parameters: input_schema };
  },
};
