import type { Model, ModelRequest, ModelResponse } from '../../model/model.js';
import { httpModelOptions, type EndpointSpec, type HttpModelOptions } from '../http-model-options.js';
import { bearerAuth, postToEndpoint } from '../post-to-endpoint.js';
import { bodyParameters, PROVIDER_OWNED_KEYS, sentParameters } from '../parameter-specs.js';
import type { ProviderEntry } from '../provider-entry.js';
import { RESPONSES_PROVIDER, toInputItems, toResponsesTool } from './responses-input.js';
import { mapResponsesOutput } from './responses-output.js';

// The same account, key and base URL as the Chat Completions provider.
const ENDPOINT: EndpointSpec = {
  provider: RESPONSES_PROVIDER,
  baseUrlEnv: 'OPENAI_BASE_URL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  path: '/responses',
  apiKeyEnv: 'OPENAI_API_KEY',
};

/** A model behind the OpenAI Responses API (`POST /v1/responses`), stateless: every request carries the whole transcript. */
export class OpenAIResponsesModel implements Model {
  readonly provider = RESPONSES_PROVIDER;
  readonly modelId: string;
  private readonly options: HttpModelOptions;

  constructor(options: HttpModelOptions) {
    this.options = options;
    this.modelId = options.model;
  }

  /** Sends one Responses request and maps its output items to a ModelResponse. */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    const reply = await postToEndpoint(
      { endpoint: ENDPOINT, path: ENDPOINT.path, body: this.requestBody(request), signal: request.signal, auth: bearerAuth },
      this.options,
    );
    return mapResponsesOutput(reply);
  }

  private requestBody(request: ModelRequest): Record<string, unknown> {
    // With store: false, sentParameters asks for reasoning.encrypted_content, which then travels back instead of ids.
    const parameters = bodyParameters(sentParameters(this.provider, request.parameters), PROVIDER_OWNED_KEYS[RESPONSES_PROVIDER]);
    const body: Record<string, unknown> = { model: this.modelId };
    if (request.system !== '') body.instructions = request.system;
    body.input = toInputItems(request.messages, parameters.store !== false);
    if (request.tools.length > 0) body.tools = request.tools.map(toResponsesTool);
    return { ...body, ...parameters };
  }
}

/** The `openai-responses` registry entry: the Responses API, `OPENAI_BASE_URL` / `OPENAI_API_KEY`. */
export const openaiResponsesProvider: ProviderEntry = {
  name: RESPONSES_PROVIDER,
  genAiName: 'openai',
  endpoint: ENDPOINT,
  create: (llm, options) => new OpenAIResponsesModel(httpModelOptions(llm, options)),
  // `{type: function, name, description, parameters, strict}` (no nested `function`, unlike Chat Completions).
  // `strict` goes too: it is this API's wire detail (always false from agentcheck), so the key
  // matches the other providers' `{name, description, parameters}` (docs/cassettes.md, Matching).
  matchTool(tool) {
    if (tool.type !== 'function' || 'function' in tool || typeof tool.name !== 'string') return undefined;
    const { type: _type, strict: _strict, ...rest } = tool;
    return rest;
  },
  // The transcript and system prompt are `input` and `instructions` in this API.
  matchFields: { system: 'instructions', messages: 'input' },
};
