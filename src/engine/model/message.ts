/** Transcript messages (docs/engine-loop.md). */

/** One tool call inside an assistant message. */
export interface ToolCallPart {
  tool_call_id: string;
  tool_name: string;
  input: unknown;
}

export interface UserMessage {
  role: 'user';
  content: string;
}

/**
 * An assistant message as the provider sent it, kept when it holds reasoning the provider
 * requires back unchanged in the next request (Anthropic `thinking` / `redacted_thinking` blocks
 * with their signatures, OpenAI Responses `reasoning` items). `items` is the provider's own JSON
 * (content blocks, output items), in its order; that provider sends them back as they are instead
 * of rebuilding the message from `content` and `tool_calls`; any other provider ignores them.
 */
export interface ProviderContent {
  /** The registry name of the provider that produced it (`anthropic`, `openai-responses`). */
  provider: string;
  items: Record<string, unknown>[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  tool_calls?: ToolCallPart[];
  /** The provider's own content of this message, sent back verbatim (reasoning is never `content`). */
  provider_content?: ProviderContent;
}

/** A tool result; `content` is what the model sees (after prompt security). */
export interface ToolResultMessage {
  role: 'tool';
  tool_call_id: string;
  tool_name: string;
  content: string;
  /** What the model is told: the call did not succeed (a denied call too). */
  is_error: boolean;
  /** Set when a gate or the permissions refused the call: not a tool error (docs/spans.md). */
  denied?: true;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;
