import { ownValue, setOwn } from '../../config/own-key.js';
import type { LoopState } from '../loop/agent-loop.js';
import { capText } from '../tools/result-text.js';
import type { Message } from '../model/message.js';
import type { Usage } from '../model/model.js';
import type { PendingInteraction } from '../turn.js';

/** The flow state channels (docs/workflows.md, Flows). */
export interface FlowState {
  /** Replaced: running, completed, input_required, approval_required, max_turns, error. */
  status: string;
  /** Per component, appended: each agent component's own conversation. */
  conversation_history: Record<string, Message[]>;
  /** Appended: one entry per step a user interface would show. */
  ui_chat_log: Array<Record<string, unknown>>;
  /** Deep-merged (arrays replaced): inputs, `goal` and every component's outputs. */
  context: Record<string, unknown>;
}

/** A component that paused, or stopped mid-way between two tool rounds. */
export interface ComponentProgress {
  component: string;
  /** An agent component's loop state so far. */
  loop?: LoopState;
  /** The call or question waiting for an answer. */
  pending?: PendingInteraction;
}

/** Everything a flow run needs to go on: what a flow checkpoint holds. Plain JSON. */
export interface FlowRunState {
  flow: FlowState;
  /** The turn's transcript so far: the input, then each agent component's messages. */
  messages: Message[];
  /** Usage of finished component executions. */
  usage: Usage;
  /** Model calls of finished component executions (a resumed scripted model skips them). */
  modelCalls: number;
  /** Component executions so far (loop guard, call ids). */
  executions: number;
  /** The component to run next; null once the flow reached its end. */
  next: string | null;
  current?: ComponentProgress;
  /** The last agent component's final answer: the turn's output. */
  output: string;
}

/** The state a flow starts from (docs/workflows.md, Flows): context = input.context plus goal. */
export function initialFlowRun(entryPoint: string, messages: readonly Message[], context: Readonly<Record<string, unknown>> = {}): FlowRunState {
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const start: Record<string, unknown> = {};
  mergeContext(start, context);
  mergeContext(start, { goal: lastUser?.content ?? '' });
  return {
    flow: { status: 'running', conversation_history: {}, ui_chat_log: [], context: start },
    messages: [...messages],
    usage: { input_tokens: 0, output_tokens: 0 },
    modelCalls: 0,
    executions: 0,
    next: entryPoint,
    output: '',
  };
}

/**
 * Deep-merges `update` into `target` (the context channel's rule): objects merge key by key,
 * arrays and scalars replace. Values are copied, so state never aliases a tool's result.
 */
export function mergeContext(target: Record<string, unknown>, update: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(update)) {
    // Own keys only, defined as data: a `__proto__` key of the run's inputs.context is a key like
    // any other, never the object's prototype (merging into it would change Object.prototype).
    const current = ownValue(target, key);
    if (isPlainObject(current) && isPlainObject(value)) mergeContext(current, value);
    else setOwn(target, key, structuredClone(value));
  }
}

/**
 * Writes a component's outputs at `context:<component>.<key>`. Each output value replaces what
 * was there (an old tool result object is never merged into a new one); other keys under the
 * component stay.
 */
export function writeOutputs(state: FlowState, component: string, outputs: Readonly<Record<string, unknown>>): void {
  // By the component's own key: one named `__proto__` would otherwise write into Object.prototype.
  const own = ownValue(state.context, component);
  let target: Record<string, unknown>;
  if (isPlainObject(own)) target = own;
  else setOwn(state.context, component, (target = {}));
  for (const [key, value] of Object.entries(outputs)) setOwn(target, key, structuredClone(value));
}

/** A component's conversation so far (none yet: empty), by its own key: never a member of Object.prototype. */
export function componentHistory(state: FlowState, component: string): Message[] {
  return ownValue(state.conversation_history, component) ?? [];
}

/** Longest string kept in the recorded conversation_history; a longer one is cut with a marker. */
export const MAX_EVIDENCE_STRING_CHARS = 4_000;

/** The flow state as recorded on the root span (`agentcheck.flow.state`). */
export interface RecordedFlowState {
  status: string;
  context: Record<string, unknown>;
  ui_chat_log: Array<Record<string, unknown>>;
  /** Each agent component's conversation; strings over MAX_EVIDENCE_STRING_CHARS cut. */
  conversation_history: Record<string, Message[]>;
}

/**
 * The JSON recorded on the root span as `agentcheck.flow.state`: all four channels, so the
 * `state` check can read `conversation_history:<component>.0.content`. To keep the attribute
 * small, every string inside a recorded message (content, tool call inputs) longer than
 * MAX_EVIDENCE_STRING_CHARS is cut to that length plus `[truncated N characters]`; the run
 * state itself (checkpoints, the turn's messages) keeps the whole text.
 */
export function flowStateEvidence(state: FlowState): RecordedFlowState {
  const conversation_history: Record<string, Message[]> = {};
  for (const [component, messages] of Object.entries(state.conversation_history)) {
    setOwn(
      conversation_history,
      component,
      messages.map((message) => capStrings(message, MAX_EVIDENCE_STRING_CHARS) as Message),
    );
  }
  return { status: state.status, context: state.context, ui_chat_log: state.ui_chat_log, conversation_history };
}

/** A copy of `value` with every string longer than `max` cut, saying how much was cut. */
function capStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return capText(value, max);
  if (Array.isArray(value)) return value.map((item) => capStrings(item, max));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, capStrings(item, max)]));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
