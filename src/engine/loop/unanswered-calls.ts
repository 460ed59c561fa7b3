import type { Message, ToolCallPart, ToolResultMessage } from '../model/message.js';

/** The calls of the last assistant message that have no result yet (a paused run): the first is the one a resume answers. */
export function unansweredCalls(messages: readonly Message[]): ToolCallPart[] {
  let assistantIndex = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') assistantIndex = index;
  });
  const last = messages[assistantIndex];
  if (!last || last.role !== 'assistant' || !last.tool_calls?.length) return [];
  const answered = new Set(
    messages
      .slice(assistantIndex + 1)
      .filter((m): m is ToolResultMessage => m.role === 'tool')
      .map((m) => m.tool_call_id),
  );
  return last.tool_calls.filter((call) => !answered.has(call.tool_call_id));
}
