import type { Message, ToolCallPart, ToolResultMessage } from '../../../engine/model/message.js';

/** One tool call of a transcript and the result that answered it (null: none yet, e.g. paused). */
export interface AnsweredCall {
  call: ToolCallPart;
  result: ToolResultMessage | null;
}

/**
 * Every tool call of a transcript, in order, paired with its result by position rather than by
 * id alone: a model (or a script) may reuse a call id, so a call left paused and a later call with
 * the same id must not both show the later result. A result answers an unanswered call with its
 * id from the latest assistant message that has one (the first such call in that message).
 */
export function answeredCalls(transcript: readonly Message[]): AnsweredCall[] {
  const calls: Array<AnsweredCall & { turn: number }> = [];
  transcript.forEach((message, turn) => {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) calls.push({ call, result: null, turn });
      return;
    }
    if (message.role !== 'tool') return;
    let answered: (typeof calls)[number] | undefined;
    for (const entry of calls) {
      if (entry.result || entry.call.tool_call_id !== message.tool_call_id) continue;
      if (!answered || entry.turn > answered.turn) answered = entry;
    }
    if (answered) answered.result = message;
  });
  return calls.map(({ call, result }) => ({ call, result }));
}
