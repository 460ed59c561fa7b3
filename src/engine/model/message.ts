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
 * A piece of the model's reasoning the provider requires back, unchanged, in the next request
 * (Anthropic `thinking` / `redacted_thinking` blocks with their signatures, OpenAI Responses
 * `reasoning` items). `block` is the provider's own JSON, kept byte for byte; only the provider
 * named sends it back. Reasoning is never part of the message's `content` (the output).
 */
export interface ReasoningPart {
  /** The registry name of the provider that produced it (`anthropic`, `openai-responses`). */
  provider: string;
  block: Record<string, unknown>;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  tool_calls?: ToolCallPart[];
  /** Reasoning that came before the text and calls, in the order the provider gave it. */
  reasoning?: ReasoningPart[];
}

/** A tool result; `content` is what the model sees (after prompt security). */
export interface ToolResultMessage {
  role: 'tool';
  tool_call_id: string;
  tool_name: string;
  content: string;
  is_error: boolean;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;
