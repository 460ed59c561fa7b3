import type { AgentBuild } from '../revision/types.js';

/** A field of a checkpoint that does not hold what a resumed run reads, with its path (`state.flow.context`). */
export interface CheckpointProblem {
  path: string;
  expected: string;
}

/**
 * What a checkpoint must hold for a run to continue from it (docs/workflows.md, Checkpoints):
 * checked before anything runs, so a damaged or hand-edited one is refused naming the field
 * instead of failing mid-run with a TypeError. `build` adds that a flow's next component exists.
 */
export function checkpointShapeProblems(checkpoint: unknown, build?: AgentBuild): CheckpointProblem[] {
  const problems: CheckpointProblem[] = [];
  const at = (path: string, expected: string) => problems.push({ path, expected });
  if (!isObject(checkpoint)) return [{ path: '', expected: 'expected a checkpoint object' }];
  if (checkpoint.kind !== 'agent' && checkpoint.kind !== 'flow') at('kind', 'expected "agent" or "flow"');
  if (!Number.isSafeInteger(checkpoint.seq)) at('seq', 'expected a whole number');
  const state = checkpoint.state;
  if (!isObject(state)) {
    at('state', "expected the run's state (an object)");
    return problems;
  }
  if (!Array.isArray(state.messages)) at('state.messages', "expected the paused run's messages (a list)");
  if (checkpoint.kind !== 'flow') return problems;
  const flow = state.flow;
  if (!isObject(flow)) at('state.flow', 'expected the flow state {status, context, conversation_history, ui_chat_log}');
  else {
    if (!isObject(flow.context)) at('state.flow.context', 'expected the flow context (an object)');
    if (!isObject(flow.conversation_history)) at('state.flow.conversation_history', 'expected an object of conversations by component');
    if (!Array.isArray(flow.ui_chat_log)) at('state.flow.ui_chat_log', 'expected a list');
  }
  const names = build?.flow?.components.map((component) => component.name);
  if (state.next !== null && (typeof state.next !== 'string' || (names && !names.includes(state.next)))) {
    at('state.next', `expected null or the name of a component of the flow${names ? ` (${names.join(', ')})` : ''}`);
  }
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
