import type { Message } from '../model/message.js';
import type { FinishReason, Model, ModelRequest, ModelResponse, ModelToolCall, ToolDefinition } from '../model/model.js';
import { httpModelOptions, type EndpointSpec, type HttpModelOptions } from './http-model-options.js';
import { bearerAuth, postToEndpoint } from './post-to-endpoint.js';
import type { JsonReply } from './http-retry.js';
import { bodyParameters, PROVIDER_OWNED_KEYS } from './parameter-specs.js';
import type { ProviderEntry } from './provider-entry.js';
import { asRecord, detailCount, finishReasonFrom, tokens } from './response-fields.js';
import { parseToolArguments } from './tool-call-arguments.js';

const ENDPOINT: EndpointSpec = {
  provider: 'openai',
  baseUrlEnv: 'OPENAI_BASE_URL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  path: '/chat/completions',
  apiKeyEnv: 'OPENAI_API_KEY',
};

type ChatMessage = Record<string, unknown>;

/** A model behind any OpenAI-compatible Chat Completions endpoint (OpenAI, Azure-style proxies, Ollama, vLLM). */
export class OpenAIChatModel implements Model {
  readonly provider = 'openai';
  readonly modelId: string;
  private readonly options: HttpModelOptions;

  constructor(options: HttpModelOptions) {
    this.options = options;
    this.modelId = options.model;
  }

  /** Sends one Chat Completions request and maps the first choice to a ModelResponse. */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    const reply = await postToEndpoint(
      { endpoint: ENDPOINT, path: ENDPOINT.path, body: this.requestBody(request), signal: request.signal, auth: bearerAuth },
      this.options,
    );
    return mapResponse(reply);
  }

  private requestBody(request: ModelRequest): Record<string, unknown> {
    const body: Record<string, unknown> = { model: this.modelId, messages: toChatMessages(request.system, request.messages) };
    if (request.tools.length > 0) body.tools = request.tools.map(toChatTool);
    // Parameters as given (validated at load), then `parameters.extra` merged in as is.
    return { ...body, ...bodyParameters(request.parameters, PROVIDER_OWNED_KEYS.openai) };
  }
}

function toChatMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = system === '' ? [] : [{ role: 'system', content: system }];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const calls = message.tool_calls ?? [];
        if (calls.length === 0) {
          out.push({ role: 'assistant', content: message.content });
          break;
        }
        // With tool calls and no text, the API expects `content: null` rather than "".
        out.push({
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.tool_call_id,
            type: 'function',
            function: { name: call.tool_name, arguments: JSON.stringify(call.input ?? {}) },
          })),
        });
        break;
      }
      case 'tool':
        out.push({ role: 'tool', tool_call_id: message.tool_call_id, content: message.content });
        break;
    }
  }
  return out;
}

function toChatTool(tool: ToolDefinition): Record<string, unknown> {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

function mapResponse(reply: JsonReply): ModelResponse {
  const body = asRecord(reply.json);
  const choice = asRecord(Array.isArray(body.choices) ? body.choices[0] : undefined);
  const message = asRecord(choice.message);
  if (Object.keys(message).length === 0) throw reply.malformed('response has no choices[0].message');
  const usage = asRecord(body.usage);
  // A refusal comes with finish_reason "stop"; the message's `refusal` field says it was one.
  const refusal = typeof message.refusal === 'string' && message.refusal !== '' ? message.refusal : undefined;
  const finishReason = finishReasonOf(choice.finish_reason);
  return {
    text: textOf(message.content),
    toolCalls: toolCallsOf(message.tool_calls, reply),
    finishReason: refusal === undefined ? finishReason : { ...finishReason, unified: 'refusal' },
    ...(refusal === undefined ? {} : { refusal }),
    usage: {
      input_tokens: tokens(usage.prompt_tokens),
      output_tokens: tokens(usage.completion_tokens),
      ...detailCount('cached_input_tokens', asRecord(usage.prompt_tokens_details).cached_tokens),
      ...detailCount('reasoning_tokens', asRecord(usage.completion_tokens_details).reasoning_tokens),
    },
    responseModel: typeof body.model === 'string' ? body.model : undefined,
    responseId: typeof body.id === 'string' ? body.id : undefined,
  };
}

/** Content is a string or null; some compatible servers send an array of text parts instead. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof asRecord(part).text === 'string' ? (asRecord(part).text as string) : '')).join('');
}

function toolCallsOf(raw: unknown, reply: JsonReply): ModelToolCall[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((entry, index) => {
    const fn = asRecord(asRecord(entry).function);
    if (typeof fn.name !== 'string' || fn.name === '') throw reply.malformed(`tool call ${index} has no function.name`);
    const name = fn.name;
    const id = asRecord(entry).id;
    // An empty id (some compatible servers send one) is no id: a call is answered and resumed by its id.
    return { id: typeof id === 'string' && id !== '' ? id : `call_${index}`, name, ...parseToolArguments(fn.arguments) };
  });
}

const FINISH = new Map<string, FinishReason['unified']>([
  ['stop', 'stop'],
  ['tool_calls', 'tool_calls'],
  ['function_call', 'tool_calls'],
  ['length', 'length'],
  ['content_filter', 'content_filter'],
]);

function finishReasonOf(raw: unknown): FinishReason {
  return finishReasonFrom(FINISH, raw);
}

/** The `openai` registry entry: Chat Completions, `OPENAI_BASE_URL` / `OPENAI_API_KEY`. */
export const openaiProvider: ProviderEntry = {
  name: 'openai',
  endpoint: ENDPOINT,
  create: (llm, options) => new OpenAIChatModel(httpModelOptions(llm, options)),
  // `{type: function, function: {name, description, parameters}}`
  matchTool(tool) {
    const fn = tool.function;
    if (tool.type !== 'function' || !fn || typeof fn !== 'object' || Array.isArray(fn)) return undefined;
    const { type: _type, function: _fn, ...rest } = tool;
    return { ...(fn as Record<string, unknown>), ...rest };
  },
};
