import { describeValue } from '../../config/describe-value.js';
import { joinPathKey } from '../../config/format-path.js';
import { keysOf, unknownKeyMessage } from '../../config/option-keys.js';
import type { ComponentProgress, FlowRunState, FlowState } from '../flow/flow-state.js';
import type { LoopState } from '../loop/agent-loop.js';
import type { Message } from '../model/message.js';
import { transcriptProblems } from '../model/message-problems.js';
import type { Usage } from '../model/model.js';
import type { AgentBuild } from '../revision/types.js';
import type { PendingInteraction } from '../turn.js';
import type { AgentCheckpoint } from './checkpointer.js';
import { flowPendingProblems } from './flow-pending-fit.js';
import { pendingMatchesMessages } from './pending-call-fit.js';

/** A field of a checkpoint that does not hold what a resumed run reads, with its path (`state.flow.context`). */
export interface CheckpointProblem {
  path: string;
  expected: string;
}

const CHECKPOINT_KEYS = keysOf<AgentCheckpoint>({
  id: true,
  traceId: true,
  seq: true,
  revisionHash: true,
  deltaHash: true,
  modelCalls: true,
  pending: true,
  kind: true,
  state: true,
});
const PENDING_KEYS = keysOf<PendingInteraction>({ id: true, tool: true, tool_call_id: true, args: true });
const LOOP_KEYS = keysOf<LoopState>({ messages: true, turns: true, usage: true });
const FLOW_RUN_KEYS = keysOf<FlowRunState>({
  flow: true,
  messages: true,
  usage: true,
  modelCalls: true,
  executions: true,
  next: true,
  current: true,
  output: true,
});
const FLOW_STATE_KEYS = keysOf<FlowState>({ status: true, conversation_history: true, ui_chat_log: true, context: true });
const PROGRESS_KEYS = keysOf<ComponentProgress>({ component: true, loop: true, pending: true });
const USAGE_KEYS = keysOf<Usage>({ input_tokens: true, output_tokens: true, cached_input_tokens: true, reasoning_tokens: true });
const REQUIRED_USAGE = ['input_tokens', 'output_tokens'];

type At = (path: string, expected: string) => void;

/** Whether `value` is a trace id as the engine's runs get them (W3C: 32 lowercase hex digits), which a checkpoint's traceId is. */
export function isTraceId(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value);
}

/**
 * What a checkpoint must hold for a run to continue from it (docs/workflows.md, Checkpoints):
 * checked before anything runs, so a damaged or hand-edited one is refused naming the field
 * instead of failing mid-run with a TypeError or running on with a value it misreads. A key
 * the checkpoint does not have is refused, as in every file agentcheck reads. `build` adds that
 * a flow's next (and current) component exists.
 */
export function checkpointShapeProblems(checkpoint: unknown, build?: AgentBuild): CheckpointProblem[] {
  const problems: CheckpointProblem[] = [];
  const at: At = (path, expected) => problems.push({ path, expected });
  const state = commonShape(checkpoint, at);
  if (state === undefined) return problems;
  // A kind the build does not run (an agent checkpoint for a flow) is checkpointMisfit's to say,
  // naming the kind, not one unknown key per field of the other kind's state.
  if (build && ((checkpoint as Record<string, unknown>).kind === 'flow') !== (build.flow !== undefined)) return problems;
  kindShape(checkpoint as Record<string, unknown>, state, build, at);
  return problems;
}

/**
 * The part of checkpointShapeProblems that holds whatever build the checkpoint is resumed with:
 * its identity (id, kind, hashes), its pending call, and its state's messages and usage. Sound,
 * the checkpoint can be told apart from another build's (checkpointMisfit) before its state is
 * held to the build, which a checkpoint of another build could never fit.
 */
export function checkpointCommonProblems(checkpoint: unknown): CheckpointProblem[] {
  const problems: CheckpointProblem[] = [];
  commonShape(checkpoint, (path, expected) => problems.push({ path, expected }));
  return problems;
}

/** The build-independent checks; returns the state to check further, undefined when there is none. */
function commonShape(checkpoint: unknown, at: At): Record<string, unknown> | undefined {
  if (!isObject(checkpoint)) {
    at('', `expected a checkpoint object, got ${describeValue(checkpoint)}`);
    return undefined;
  }
  unknownKeys(checkpoint, CHECKPOINT_KEYS, '', at);
  if (checkpoint.kind !== 'agent' && checkpoint.kind !== 'flow') at('kind', `expected "agent" or "flow", got ${describeValue(checkpoint.kind)}`);
  // The writer numbers a run's checkpoints from 1 (checkpoint-writer.ts).
  if (!Number.isSafeInteger(checkpoint.seq) || (checkpoint.seq as number) < 1) at('seq', `expected a whole number >= 1, got ${describeValue(checkpoint.seq)}`);
  for (const key of ['id', 'revisionHash']) if (typeof checkpoint[key] !== 'string') at(key, `expected a string, got ${describeValue(checkpoint[key])}`);
  // The run's root span's trace id: what pausedRuns.latest() looks the run up by, and its run_id.
  if (!isTraceId(checkpoint.traceId)) at('traceId', `expected the run's trace id (32 lowercase hex digits), got ${describeValue(checkpoint.traceId)}`);
  if (checkpoint.deltaHash !== null && typeof checkpoint.deltaHash !== 'string')
    at('deltaHash', `expected a string or null, got ${describeValue(checkpoint.deltaHash)}`);
  count(checkpoint, 'modelCalls', '', at);
  // null is no call waiting, as a missing key is: refused when answered (checkpointMisfit).
  if (checkpoint.pending !== null) pendingProblems(checkpoint.pending, 'pending', at, true);
  const state = checkpoint.state;
  if (!isObject(state)) {
    at('state', `expected the run's state (an object), got ${describeValue(state)}`);
    return undefined;
  }
  if (!Array.isArray(state.messages)) at('state.messages', `expected the paused run's messages (a list), got ${describeValue(state.messages)}`);
  else messages(state.messages, 'state.messages', at);
  usageProblems(state.usage, 'state.usage', at);
  return state;
}

/** The state of the checkpoint's kind: an agent's loop, or a flow's run state; `build` names the flow's components. */
function kindShape(checkpoint: Record<string, unknown>, state: Record<string, unknown>, build: AgentBuild | undefined, at: At): void {
  if (checkpoint.kind === 'agent') {
    unknownKeys(state, LOOP_KEYS, 'state', at);
    count(state, 'turns', 'state', at);
    waitsAtHeldCall(checkpoint.pending, state.messages, 'pending', 'state.messages', at);
  }
  if (checkpoint.kind !== 'flow') return;
  unknownKeys(state, FLOW_RUN_KEYS, 'state', at);
  for (const key of ['modelCalls', 'executions']) count(state, key, 'state', at);
  if (typeof state.output !== 'string') at('state.output', `expected a string (the flow's output so far), got ${describeValue(state.output)}`);
  const flow = state.flow;
  if (!isObject(flow)) at('state.flow', `expected the flow state {status, context, conversation_history, ui_chat_log}, got ${describeValue(flow)}`);
  else {
    unknownKeys(flow, FLOW_STATE_KEYS, 'state.flow', at);
    if (typeof flow.status !== 'string') at('state.flow.status', `expected a string, got ${describeValue(flow.status)}`);
    if (!isObject(flow.context)) at('state.flow.context', `expected the flow context (an object), got ${describeValue(flow.context)}`);
    if (!isObject(flow.conversation_history)) {
      at('state.flow.conversation_history', `expected an object of conversations by component, got ${describeValue(flow.conversation_history)}`);
    } else {
      for (const [name, conversation] of Object.entries(flow.conversation_history)) {
        const path = joinPathKey('state.flow.conversation_history', name);
        if (Array.isArray(conversation)) messages(conversation, path, at);
        else at(path, `expected the component's conversation (a list of messages), got ${describeValue(conversation)}`);
      }
    }
    if (!Array.isArray(flow.ui_chat_log)) at('state.flow.ui_chat_log', `expected a list, got ${describeValue(flow.ui_chat_log)}`);
  }
  const names = build?.flow?.components.map((component) => component.name);
  const component = `the name of a component of the flow${names ? ` (${names.join(', ')})` : ''}`;
  if (state.next !== null && (typeof state.next !== 'string' || (names && !names.includes(state.next))))
    at('state.next', `expected null or ${component}, got ${describeValue(state.next)}`);
  if (state.current !== undefined) progressProblems(state.current, names, component, at);
  flowPendingProblems(checkpoint.pending, state, build, at);
}

/** A flow's `current`: the component that paused (or stopped between tool rounds), its loop state and pending call. */
function progressProblems(current: unknown, names: string[] | undefined, component: string, at: At): void {
  if (!isObject(current)) {
    at('state.current', `expected the component in progress {component, loop?, pending?}, got ${describeValue(current)}`);
    return;
  }
  unknownKeys(current, PROGRESS_KEYS, 'state.current', at);
  if (typeof current.component !== 'string' || (names && !names.includes(current.component)))
    at('state.current.component', `expected ${component}, got ${describeValue(current.component)}`);
  if (current.pending !== undefined) pendingProblems(current.pending, 'state.current.pending', at, false);
  const loop = current.loop;
  if (loop === undefined) return;
  if (!isObject(loop)) {
    at('state.current.loop', `expected the component's loop state {messages, turns, usage}, got ${describeValue(loop)}`);
    return;
  }
  unknownKeys(loop, LOOP_KEYS, 'state.current.loop', at);
  if (!Array.isArray(loop.messages)) at('state.current.loop.messages', `expected the component's messages (a list), got ${describeValue(loop.messages)}`);
  else messages(loop.messages, 'state.current.loop.messages', at);
  count(loop, 'turns', 'state.current.loop', at);
  usageProblems(loop.usage, 'state.current.loop.usage', at);
}

/** The call or question a run waits at: `{id, tool, tool_call_id, args}`. */
function pendingProblems(pending: unknown, path: string, at: At, optional: boolean): void {
  if (pending === undefined && optional) return;
  if (!isObject(pending)) {
    at(path, `expected the call the run waits at {id, tool, tool_call_id, args}, got ${describeValue(pending)}`);
    return;
  }
  unknownKeys(pending, PENDING_KEYS, path, at);
  for (const key of ['id', 'tool', 'tool_call_id']) {
    if (typeof pending[key] !== 'string' || pending[key] === '') at(joinPathKey(path, key), `expected a non-empty string, got ${describeValue(pending[key])}`);
  }
}

/** Token counts `{input_tokens, output_tokens, cached_input_tokens?, reasoning_tokens?}`. */
function usageProblems(usage: unknown, path: string, at: At): void {
  if (!isObject(usage)) {
    at(path, `expected token counts {input_tokens, output_tokens}, got ${describeValue(usage)}`);
    return;
  }
  unknownKeys(usage, USAGE_KEYS, path, at);
  for (const key of USAGE_KEYS) if (REQUIRED_USAGE.includes(key) || usage[key] !== undefined) count(usage, key, path, at);
}

/** The messages held to invoke's rules for its input (message-problems.ts), at their paths. */
function messages(list: readonly unknown[], path: string, at: At): void {
  for (const problem of transcriptProblems(list, 'checkpoint', path)) at(problem.path ?? path, problem.expected);
}

/**
 * A pending call (an object) held to the call sound messages hold waiting, and a missing one
 * (undefined or null) where they hold one; messages invoke would refuse are named as such instead.
 */
function waitsAtHeldCall(pending: unknown, list: unknown, path: string, messagesPath: string, at: At): void {
  if (!Array.isArray(list) || transcriptProblems(list, 'checkpoint', messagesPath).length) return;
  pendingMatchesMessages(pending, true, list as Message[], path, messagesPath, at);
}

/** A count of model calls, turns or tokens (`value[key]`, at `path`): a whole number >= 0. */
function count(value: Record<string, unknown>, key: string, path: string, at: At): void {
  const given = value[key];
  if (!Number.isSafeInteger(given) || (given as number) < 0) at(joinPathKey(path, key), `expected a whole number >= 0, got ${describeValue(given)}`);
}

/** Each key of `value` (at `path`) that is not `known`, at its path: one holding a dot, a quote or white space, or empty, in brackets (formatPath). */
function unknownKeys(value: Record<string, unknown>, known: readonly string[], path: string, at: At): void {
  for (const key of Object.keys(value)) if (!known.includes(key)) at(joinPathKey(path, key), unknownKeyMessage(key, known));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
