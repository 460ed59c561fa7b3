import { canonicalJson } from '../../config/canonical-json.js';
import { quoteJson } from '../../config/cap-text.js';
import { joinPathKey } from '../../config/format-path.js';
import { unansweredCalls } from '../loop/unanswered-calls.js';
import type { Message } from '../model/message.js';

type At = (path: string, expected: string) => void;

/** A field of a call a checkpoint holds: its tool, call id or arguments. */
type CallField = 'tool' | 'tool_call_id' | 'args';

/** A call as a checkpoint holds it elsewhere: its tool, call id and arguments. */
export type HeldCall = Record<CallField, unknown>;

/**
 * The call a resumed run answers, which a checkpoint's pending copies are held to: `call`, said
 * in messages as `source` (`the call the checkpoint's state.messages[1].tool_calls[0] holds
 * waiting (...)`), `fields` being those of it that are known (a step's arguments are not when
 * the flow state lacks one of its inputs: the resumed step stops there, calling nothing).
 */
export interface WaitingCall {
  call: HeldCall;
  source: string;
  fields: readonly CallField[];
}

const ALL_FIELDS: readonly CallField[] = ['tool', 'tool_call_id', 'args'];

/**
 * The call sound `messages` (at `messagesPath`) hold waiting: the first call of the last
 * assistant message that has no result, which is the call a resumed run answers (agent-loop.ts,
 * unanswered-calls.ts). Undefined when none waits.
 */
function callWaitingInMessages(messages: readonly Message[], messagesPath: string): WaitingCall | undefined {
  const waiting = unansweredCalls(messages)[0];
  if (waiting === undefined) return undefined;
  const index = messages.findLastIndex((message) => message.role === 'assistant');
  const assistant = messages[index];
  const callIndex = assistant.role === 'assistant' ? (assistant.tool_calls ?? []).indexOf(waiting) : -1;
  return {
    call: { tool: waiting.tool_name, tool_call_id: waiting.tool_call_id, args: waiting.input },
    source: `the call the checkpoint's ${messagesPath}[${index}].tool_calls[${callIndex}] holds waiting (the call a resume answers)`,
    fields: ALL_FIELDS,
  };
}

/**
 * Holds a checkpoint's saved copy of its pending call (`copy`, at `path`) to the call its sound
 * messages (at `messagesPath`) hold waiting. A hand-edited `pending.tool` or `pending.args` would
 * otherwise name one call while the decision went to another (docs/workflows.md, Checkpoints); a
 * copy that is missing while a call waits is said as nothing (copyShown).
 */
export function pendingMatchesMessages(copy: unknown, nullMeansNone: boolean, messages: readonly Message[], path: string, messagesPath: string, at: At): void {
  const shown = copyShown(copy, nullMeansNone);
  if (shown === undefined) return;
  const waiting = callWaitingInMessages(messages, messagesPath);
  if (waiting) pendingMatchesCall(shown === MISSING ? undefined : shown, waiting, path, at);
  else if (shown !== MISSING) {
    at(
      path,
      `expected no pending call: the last assistant message of the checkpoint's ${messagesPath} has no call waiting for an answer, got a call of tool ${quoteJson(shown.tool)}`,
    );
  }
}

/** Holds a checkpoint's saved copy of its pending call (`copy`, at `path`) to `waiting`, the call a resume makes again. */
export function copyMatchesCall(copy: unknown, nullMeansNone: boolean, waiting: WaitingCall, path: string, at: At): void {
  const shown = copyShown(copy, nullMeansNone);
  if (shown !== undefined) pendingMatchesCall(shown === MISSING ? undefined : shown, waiting, path, at);
}

const MISSING = Symbol('missing');

/**
 * A saved copy of the pending call as it is held to the waiting one: the object; MISSING when it
 * is absent, or null where null means no call (the top-level `pending`); undefined for any other
 * value, which the shape check names. A checkpoint is only saved after a tool round is answered or
 * where the run paused, so a copy missing while a call waits was deleted: else a decision is
 * refused as answering nothing and a resume without one makes the call unasked.
 */
function copyShown(copy: unknown, nullMeansNone: boolean): Record<string, unknown> | typeof MISSING | undefined {
  if (typeof copy === 'object' && copy !== null && !Array.isArray(copy)) return copy as Record<string, unknown>;
  return copy === undefined || (copy === null && nullMeansNone) ? MISSING : undefined;
}

/**
 * Each known field of `pending` (at `path`) that differs from the call `waiting` holds: `tool`,
 * `tool_call_id` and `args` (compared as JSON, key order aside); a `pending` that is missing
 * (undefined) is said once, as nothing. A tool or call id that is no non-empty string is the
 * shape check's to name, not a second problem here.
 */
function pendingMatchesCall(pending: Record<string, unknown> | undefined, waiting: WaitingCall, path: string, at: At): void {
  const { call, source, fields } = waiting;
  if (pending === undefined) {
    const known = fields.filter((field) => field !== 'tool').map((field) => `${WORDS[field]} ${quoteJson(call[field])}`);
    at(path, `expected the call of tool ${quoteJson(call.tool)}${known.length ? ` (${known.join(', ')})` : ''}, ${source}, got nothing`);
    return;
  }
  const named = (value: unknown) => typeof value === 'string' && value !== '';
  for (const field of fields) {
    if (field !== 'args' && !named(pending[field])) continue;
    if (canonicalJson(pending[field]) === canonicalJson(call[field])) continue;
    at(joinPathKey(path, field), `expected ${quoteJson(call[field])}, the ${WORDS[field]} of ${source}, got ${quoteJson(pending[field])}`);
  }
}

const WORDS = { tool: 'tool', tool_call_id: 'call id', args: 'arguments' } as const;
