import type { Message, ToolCallPart, ToolResultMessage } from '../../../engine/model/message.js';

/** One tool call of a transcript and the result that answered it (null: none yet, e.g. paused). */
export interface AnsweredCall {
  call: ToolCallPart;
  result: ToolResultMessage | null;
  /** Index in the transcript of the assistant message that made the call. */
  message: number;
}

/**
 * Every tool call of a transcript, in order, paired with its result by position rather than by
 * id alone: a model (or a script) may reuse a call id, so a call left paused and a later call with
 * the same id must not both show the later result. A result answers an unanswered call with its
 * id from the latest assistant message that has one (the first such call in that message).
 */
export function answeredCalls(transcript: readonly Message[]): AnsweredCall[] {
  const calls: AnsweredCall[] = [];
  transcript.forEach((message, index) => {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) calls.push({ call, result: null, message: index });
      return;
    }
    if (message.role !== 'tool') return;
    let answered: AnsweredCall | undefined;
    for (const entry of calls) {
      if (entry.result || entry.call.tool_call_id !== message.tool_call_id) continue;
      if (!answered || entry.message > answered.message) answered = entry;
    }
    if (answered) answered.result = message;
  });
  return calls;
}
