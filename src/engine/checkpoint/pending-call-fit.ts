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
function pendingMatchesCall(pending: Record<string, unknown>, call: HeldCall, path: string, source: string, at: At): void {
  for (const key of differingKeys(pending, call, false)) {
    at(
      `${path}.${key}`,
      `expected ${quoteJson(call[key])}, the ${WORDS[key]} of the call the checkpoint's ${source} holds waiting (the call a resume answers), got ${quoteJson(pending[key])}`,
    );
  }
}

/**
 * Each field of `pending` (at `path`) that differs from the other copy of the call, `copy` (at
 * `copyPath`), where neither is held to a source the run reads (a flow step's or human_input's
 * pause, which a resume runs again from the flow): one mismatch, naming both fields, since
 * either may be the edited one. A tool or call id that is no non-empty string is the shape check's.
 */
export function pendingCopiesAgree(pending: Record<string, unknown>, copy: HeldCall, path: string, copyPath: string, at: At): void {
  for (const key of differingKeys(pending, copy, true)) {
    at(
      `${path}.${key}`,
      `expected the same ${WORDS[key]} as ${copyPath}.${key}, the other copy of the call the run waits at: got ${quoteJson(pending[key])} here and ${quoteJson(copy[key])} there`,
    );
  }
}

/** The fields where `pending` and `call` differ; a tool or call id of `pending` (and, with `both`, of `call`) that is no non-empty string is left to the shape check. */
function differingKeys(pending: Record<string, unknown>, call: HeldCall, both: boolean): Array<keyof HeldCall> {
  const named = (value: unknown) => typeof value === 'string' && value !== '';
  return (['tool', 'tool_call_id', 'args'] as const).filter((key) => {
    if (key !== 'args' && (!named(pending[key]) || (both && !named(call[key])))) return false;
    return canonicalJson(pending[key]) !== canonicalJson(call[key]);
  });
}

const WORDS = { tool: 'tool', tool_call_id: 'call id', args: 'arguments' } as const;
