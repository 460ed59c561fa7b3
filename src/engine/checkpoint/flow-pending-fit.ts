import { quoteJson } from '../../config/cap-text.js';
import { RunError } from '../../config/errors.js';
import { withArticle } from '../../config/indefinite-article.js';
import { componentCall, flowCallId, type ComponentCall } from '../flow/components/component.js';
import type { FlowState } from '../flow/flow-state.js';
import type { Message } from '../model/message.js';
import { transcriptProblems } from '../model/message-problems.js';
import type { AgentBuild, ComponentSpec } from '../revision/types.js';
import { copyMatchesCall, pendingMatchesMessages, type WaitingCall } from './pending-call-fit.js';

type At = (path: string, expected: string) => void;

const LOOP_MESSAGES = 'state.current.loop.messages';

/**
 * Holds a flow checkpoint's call it waits at to the component that paused (docs/workflows.md,
 * Checkpoints), its state's shape already checked. The call is saved twice, as `pending` and as
 * `state.current.pending`, and a resume answers the call the component makes again: an agent
 * component's waits in its messages, a deterministic_step's or human_input's is made from the
 * build and the flow state (componentCall). Each copy is held to that call, so only an edited one
 * is named (both, when both were edited alike) and a deleted `state.current.pending` or `pending`
 * (the other still holding the call) is said as nothing: else the resumed run would answer its own call and ignore the edit. The component that
 * paused is the one `state.next` names: a resume carries `state.current` into that one only.
 * Without `build` (its components unknown), only an agent component's messages are held to.
 */
export function flowPendingProblems(pending: unknown, state: Record<string, unknown>, build: AgentBuild | undefined, at: At): void {
  const current = state.current;
  const waits = isObject(pending);
  if (current === undefined) {
    if (waits)
      at(
        'state.current',
        `expected the component the run waits at {component, loop?, pending}, got nothing, though pending holds a call of tool ${quoteJson(pending.tool)}`,
      );
    return;
  }
  // Not an object, or naming no component of the flow: the shape check names it.
  if (!isObject(current)) return;
  const component = build?.flow?.components.find((candidate) => candidate.name === current.component);
  if (build && !component) return;
  if (component && typeof state.next === 'string' && state.next !== component.name) {
    at(
      'state.current.component',
      `expected ${quoteJson(state.next)}, the component state.next names (a resume carries state.current into that one only), got ${quoteJson(component.name)}`,
    );
  }
  const type = component?.type ?? (current.loop === undefined ? undefined : 'agent');
  if (type === 'agent') agentComponentCopies(pending, current, at);
  else if (component && (type === 'deterministic_step' || type === 'human_input')) {
    const waiting = resumedCall(component, state);
    // A step or human_input is `current` only where it paused, so both copies hold its call: one
    // deleted is said as nothing (else a decision answers nothing, or the call is made unasked).
    copyMatchesCall(current.pending, false, waiting, 'state.current.pending', at);
    copyMatchesCall(pending, true, waiting, 'pending', at);
  } else if (component && waits) {
    at(
      'state.current.component',
      `expected a component that waits for an answer (agent, deterministic_step or human_input), got ${quoteJson(component.name)}, ${withArticle(`${component.type} component`)}`,
    );
  }
}

/** An agent component's copies of its call, each held to the call its messages hold waiting. */
function agentComponentCopies(pending: unknown, current: Record<string, unknown>, at: At): void {
  const loop = current.loop;
  if (loop === undefined) {
    if (isObject(pending))
      at('state.current.loop', `expected the agent component's loop state {messages, turns, usage}, whose messages hold the call it waits at, got nothing`);
    return;
  }
  // Messages invoke would refuse are named as such (the shape check), not held to.
  if (!isObject(loop) || !Array.isArray(loop.messages) || transcriptProblems(loop.messages, 'checkpoint', LOOP_MESSAGES).length) return;
  const messages = loop.messages as Message[];
  pendingMatchesMessages(current.pending, false, messages, 'state.current.pending', LOOP_MESSAGES, at);
  pendingMatchesMessages(pending, true, messages, 'pending', LOOP_MESSAGES, at);
}

/**
 * The call a deterministic_step or human_input makes again when resumed. Its call id counts the
 * flow's executions and its arguments are its inputs read from the flow's context: left out
 * where the state's own check already refuses what they are read from, or an input is missing
 * (the resumed component stops there, calling nothing).
 */
function resumedCall(component: ComponentSpec, state: Record<string, unknown>): WaitingCall {
  const source = `the call ${component.type} ${quoteJson(component.name)} makes when resumed (from the build, the checkpoint's state.flow and state.executions)`;
  const tool = component.type === 'human_input' ? component.name : component.tool_name;
  const executions = Number.isSafeInteger(state.executions) ? (state.executions as number) : undefined;
  const args = inputArguments(component, state);
  const fields = (['tool', 'tool_call_id', 'args'] as const).filter(
    (field) => (field !== 'tool_call_id' || executions !== undefined) && (field !== 'args' || args !== undefined),
  );
  return { call: { tool, tool_call_id: executions === undefined ? undefined : flowCallId(component.name, executions), args }, source, fields };
}

/** The arguments `component` reads from the checkpoint's flow context; undefined when they cannot be read. */
function inputArguments(component: ComponentSpec, state: Record<string, unknown>): ComponentCall['args'] | undefined {
  if (!isObject(state.flow) || !isObject(state.flow.context)) return undefined;
  try {
    return componentCall(component, { flow: state.flow as unknown as FlowState, executions: 0 }).args;
  } catch (error) {
    if (error instanceof RunError) return undefined;
    throw error;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
