import type { Message, ProviderContent } from './message.js';

/** A tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

/** One call to a model: everything a provider needs to build its request. */
export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  parameters: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * A tool call the model asked for. `args` is parsed JSON. Arguments that are not JSON are not
 * a provider failure: `argsError` says why, `args` holds the raw text, and the call becomes a
 * tool error the model sees (docs/formats.md, Tools), while the other calls of the response still run.
 */
export interface ModelToolCall {
  id: string;
  name: string;
  args: unknown;
  argsError?: string;
}

/**
 * Why the model stopped: a unified value plus the provider's own word (as the AI SDK does).
 * `length` (cut off at a token limit), `content_filter`, `refusal`, `pause` (the provider
 * paused a long-running turn), `error` and `other` end the turn abnormally (docs/engine-loop.md,
 * Stop reasons); any other word is a malformed response.
 */
export interface FinishReason {
  unified: UnifiedFinishReason;
  raw: string;
}

/** Every unified finish reason, the words a Model may answer with (docs/engine-loop.md, the Model interface). */
export const UNIFIED_FINISH_REASONS = ['stop', 'tool_calls', 'length', 'content_filter', 'refusal', 'pause', 'error', 'other'] as const;

/** One of UNIFIED_FINISH_REASONS. */
export type UnifiedFinishReason = (typeof UNIFIED_FINISH_REASONS)[number];

/** Token counts of a model call or a run. Cached and reasoning tokens are parts of input and output. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  /** Input tokens served from the provider's prompt cache (already counted in input_tokens). */
  cached_input_tokens?: number;
  /** Output tokens spent on hidden reasoning (already counted in output_tokens). */
  reasoning_tokens?: number;
}

export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: FinishReason;
  usage: Usage;
  /** The model that answered, as the provider reports it. */
  responseModel?: string;
  /** The provider's id of this completion (`gen_ai.response.id`). */
  responseId?: string;
  /** The response's own content when it holds reasoning the provider needs back (never part of `text`). */
  providerContent?: ProviderContent;
  /** The model's refusal message, when it refused (OpenAI's `refusal` field). */
  refusal?: string;
}

/**
 * The model specification the engine depends on. Providers implement it; the agent loop
 * imports only this file. Failures are thrown as ModelError.
 */
export interface Model {
  /** Provider name as recorded in spans (`gen_ai.provider.name`) and the resolved config: its registry name. */
  readonly provider: string;
  /** Requested model id (`gen_ai.request.model`). */
  readonly modelId: string;
  generate(request: ModelRequest): Promise<ModelResponse>;
}
