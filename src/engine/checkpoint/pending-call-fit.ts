import { canonicalJson } from '../../config/canonical-json.js';
import { quoteJson } from '../../config/cap-text.js';
import { unansweredCalls } from '../loop/unanswered-calls.js';
import type { Message } from '../model/message.js';

type At = (path: string, expected: string) => void;

/** A call as a checkpoint holds it elsewhere: its tool, call id and arguments. */
interface HeldCall {
  tool: unknown;
  tool_call_id: unknown;
  args: unknown;
}

/**
 * Holds a checkpoint's `pending` (at `path`) to the call its sound messages (at `messagesPath`)
 * hold waiting: the first call of the last assistant message that has no result, which is the
 * call a resumed run answers (agent-loop.ts, unanswered-calls.ts). A hand-edited `pending.tool` or `pending.args`
 * would otherwise name one call while the decision went to another (docs/workflows.md,
 * Checkpoints).
 */
export function pendingMatchesMessages(pending: Record<string, unknown>, messages: readonly Message[], path: string, messagesPath: string, at: At): void {
  const waiting = unansweredCalls(messages)[0];
  if (waiting === undefined) {
    at(
      path,
      `expected no pending call: the last assistant message of the checkpoint's ${messagesPath} has no call waiting for an answer, got a call of tool ${quoteJson(pending.tool)}`,
    );
    return;
  }
  const index = messages.findLastIndex((message) => message.role === 'assistant');
  const assistant = messages[index];
  const callIndex = assistant.role === 'assistant' ? (assistant.tool_calls ?? []).indexOf(waiting) : -1;
  const held = { tool: waiting.tool_name, tool_call_id: waiting.tool_call_id, args: waiting.input };
  pendingMatchesCall(pending, held, path, `${messagesPath}[${index}].tool_calls[${callIndex}]`, at);
}

/**
 * Each field of `pending` (at `path`) that differs from the call `source` holds: `tool`,
 * `tool_call_id` and `args` (compared as JSON, key order aside). A tool or call id that is no
 * non-empty string is the shape check's to name, not a second problem here.
 */
export function pendingMatchesCall(pending: Record<string, unknown>, call: HeldCall, path: string, source: string, at: At): void {
  for (const key of ['tool', 'tool_call_id', 'args'] as const) {
    const given = pending[key];
    if (key !== 'args' && (typeof given !== 'string' || given === '')) continue;
    if (canonicalJson(given) === canonicalJson(call[key])) continue;
    at(
      `${path}.${key}`,
      `expected ${quoteJson(call[key])}, the ${WORDS[key]} of the call the checkpoint's ${source} holds waiting (the call a resume answers), got ${quoteJson(given)}`,
    );
  }
}

const WORDS = { tool: 'tool', tool_call_id: 'call id', args: 'arguments' } as const;
