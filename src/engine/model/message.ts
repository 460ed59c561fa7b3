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

export interface AssistantMessage {
  role: 'assistant';
  content: string;
  tool_calls?: ToolCallPart[];
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
