import { setOwn } from '../../config/own-key.js';
import type { ProviderName } from '../revision/types.js';

/** The one pass-through place: `parameters.extra` is merged into the request body as is. */
export const EXTRA_KEY = 'extra';

type Schema = Record<string, unknown>;

const unit = (max: number): Schema => ({ type: 'number', minimum: 0, maximum: max });
const penalty: Schema = { type: 'number', minimum: -2, maximum: 2 };
const positiveInt: Schema = { type: 'integer', minimum: 1 };
/** An object with a string `type` (response_format, tool_choice, thinking). */
const typed: Schema = { type: 'object', required: ['type'], properties: { type: { type: 'string' } } };
const stringList = (maxItems?: number): Schema => ({ type: 'array', items: { type: 'string' }, ...(maxItems ? { maxItems } : {}) });

/** Chat Completions request fields a build may set (https://platform.openai.com/docs/api-reference/chat/create). */
const OPENAI: Record<string, Schema> = {
  temperature: unit(2),
  top_p: unit(1),
  max_tokens: positiveInt,
  max_completion_tokens: positiveInt,
  stop: { type: ['string', 'array'], items: { type: 'string' }, maxItems: 4 },
  seed: { type: 'integer' },
  presence_penalty: penalty,
  frequency_penalty: penalty,
  logit_bias: { type: 'object', additionalProperties: { type: 'number', minimum: -100, maximum: 100 } },
  logprobs: { type: 'boolean' },
  top_logprobs: { type: 'integer', minimum: 0, maximum: 20 },
  response_format: typed,
  tool_choice: { anyOf: [{ enum: ['none', 'auto', 'required'] }, { type: 'object' }] },
  parallel_tool_calls: { type: 'boolean' },
  reasoning_effort: { enum: ['minimal', 'low', 'medium', 'high'] },
  verbosity: { enum: ['low', 'medium', 'high'] },
  user: { type: 'string' },
  service_tier: { type: 'string' },
  store: { type: 'boolean' },
  metadata: { type: 'object', additionalProperties: { type: 'string' } },
};

/** Messages API request fields a build may set (https://docs.anthropic.com/en/api/messages). */
const ANTHROPIC: Record<string, Schema> = {
  max_tokens: positiveInt,
  temperature: unit(1),
  top_p: unit(1),
  top_k: { type: 'integer', minimum: 1 },
  stop_sequences: stringList(),
  metadata: { type: 'object', properties: { user_id: { type: 'string' } }, additionalProperties: false },
  tool_choice: typed,
  thinking: typed,
  service_tier: { enum: ['auto', 'standard_only'] },
};

/** Responses API request fields a build may set (https://platform.openai.com/docs/api-reference/responses/create). */
const OPENAI_RESPONSES: Record<string, Schema> = {
  temperature: unit(2),
  top_p: unit(1),
  max_output_tokens: positiveInt,
  max_tool_calls: positiveInt,
  parallel_tool_calls: { type: 'boolean' },
  tool_choice: { anyOf: [{ enum: ['none', 'auto', 'required'] }, typed] },
  reasoning: {
    type: 'object',
    properties: { effort: { enum: ['minimal', 'low', 'medium', 'high'] }, summary: { enum: ['auto', 'concise', 'detailed'] } },
    additionalProperties: false,
  },
  text: { type: 'object', properties: { format: typed, verbosity: { enum: ['low', 'medium', 'high'] } }, additionalProperties: false },
  include: stringList(),
  top_logprobs: { type: 'integer', minimum: 0, maximum: 20 },
  truncation: { enum: ['auto', 'disabled'] },
  store: { type: 'boolean' },
  metadata: { type: 'object', additionalProperties: { type: 'string' } },
  user: { type: 'string' },
  safety_identifier: { type: 'string' },
  prompt_cache_key: { type: 'string' },
  service_tier: { type: 'string' },
};

/**
 * The scripted model sends nothing anywhere, but a build may switch between providers: it takes
 * the keys of all of them (OpenAI Chat Completions' ranges where several define one).
 */
const SCRIPTED: Record<string, Schema> = { ...ANTHROPIC, ...OPENAI_RESPONSES, ...OPENAI };

/** Known `llm.parameters` keys per provider, each with the JSON Schema of its value. */
export const PARAMETER_SPECS: Record<ProviderName, Record<string, Schema>> = {
  openai: OPENAI,
  anthropic: ANTHROPIC,
  'openai-responses': OPENAI_RESPONSES,
  scripted: SCRIPTED,
};

/**
 * Per provider, one object schema over the known keys and `extra` (unknown keys are refused
 * before it runs, with a suggestion); precompiled by the build like the other format schemas.
 */
export const PARAMETER_SCHEMAS: Record<ProviderName, object> = {
  openai: parametersSchema(OPENAI),
  anthropic: parametersSchema(ANTHROPIC),
  'openai-responses': parametersSchema(OPENAI_RESPONSES),
  scripted: parametersSchema(SCRIPTED),
};

function parametersSchema(known: Record<string, Schema>): object {
  return { type: 'object', properties: { ...known, [EXTRA_KEY]: { type: 'object' } } };
}

/** The other provider's name for a key (`stop` is `stop_sequences` in the Messages API). */
export const PARAMETER_ALIASES: Partial<Record<ProviderName, Record<string, string>>> = {
  openai: { stop_sequences: 'stop' },
  anthropic: { stop: 'stop_sequences', max_completion_tokens: 'max_tokens' },
  'openai-responses': {
    max_tokens: 'max_output_tokens',
    max_completion_tokens: 'max_output_tokens',
    reasoning_effort: 'reasoning.effort',
    verbosity: 'text.verbosity',
    response_format: 'text.format',
  },
};

/** Pairs one request may not carry together: the API refuses both at once. */
export const EXCLUSIVE_PARAMETERS: Partial<Record<ProviderName, Array<[string, string]>>> = {
  openai: [['max_tokens', 'max_completion_tokens']],
  scripted: [['max_tokens', 'max_completion_tokens']],
};

/** Body keys the provider builds itself; `extra` may not replace them. */
export const PROVIDER_OWNED_KEYS: Record<ProviderName, readonly string[]> = {
  openai: ['model', 'messages', 'tools', 'stream'],
  anthropic: ['model', 'messages', 'system', 'tools', 'stream'],
  // agentcheck sends the whole transcript itself; a stored conversation would be sent twice.
  'openai-responses': ['model', 'input', 'instructions', 'tools', 'stream', 'previous_response_id', 'conversation'],
  scripted: [],
};

/** The Messages API requires max_tokens; this is sent when the parameters do not set it. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 1024;

/** What a Responses request asks back when nothing is stored: reasoning travels as this, not as an id. */
export const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/**
 * The parameters a request of this provider carries, as the resolved config shows them: the
 * given ones plus the defaults the provider adds (Anthropic's required max_tokens; with the
 * Responses API's `store: false`, `include: [reasoning.encrypted_content]`, without which
 * reasoning cannot be sent back).
 */
export function sentParameters(provider: string, parameters: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (provider === 'anthropic' && parameters.max_tokens === undefined) return { max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS, ...parameters };
  if (provider === 'openai-responses' && parameters.store === false) {
    const include = Array.isArray(parameters.include) ? parameters.include : [];
    if (!include.includes(ENCRYPTED_REASONING)) return { ...parameters, include: [...include, ENCRYPTED_REASONING] };
  }
  return { ...parameters };
}

/** The request body fields from validated parameters: known keys as given, then `extra` merged in. */
export function bodyParameters(parameters: Readonly<Record<string, unknown>>, owned: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { [EXTRA_KEY]: extra, ...known } = parameters;
  for (const [key, value] of Object.entries({ ...known, ...(isRecord(extra) ? extra : {}) })) {
    // Validation refuses these; a host that builds a request by hand still cannot replace them.
    if (!owned.includes(key)) setOwn(out, key, value);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
