import { setOwn } from '../../../config/own-key.js';
import { toolAnswer } from '../../checkpoint/resume-decision.js';
import { runAgentLoop, type LoopSetup, type LoopState } from '../../loop/agent-loop.js';
import { addUsage } from '../../model/usage.js';
import { stringifyValue } from '../../template/interpolate.js';
import { LOAD_SKILL } from '../../revision/build-tools.js';
import type { Tool } from '../../tools/tool.js';
import { componentHistory, writeOutputs } from '../flow-state.js';
import { readInputs } from '../io-key.js';
import type { ComponentContext, ComponentOutcome, FlowEnv } from './component.js';

/**
 * An `agent` component (docs/workflows.md, Flows): the agent loop on the component's own toolset, with
 * its inputs rendered into one user message after the component's earlier conversation. The
 * final answer lands at `context:<name>.final_answer`.
 */
export async function runAgentComponent(context: ComponentContext): Promise<ComponentOutcome> {
  const { component, run, env } = context;
  const history = componentHistory(run.flow, component.name);
  const tools = toolset(component.toolset, env);
  const setup: LoopSetup = {
    ...env.loopSetup,
    system: [component.instructions ?? env.agentInstructions, env.skillsPrompt].filter(Boolean).join('\n\n'),
    tools: [...tools.values()].map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
    caller: env.loopSetup.caller.restrictedTo(tools),
    // The component's own cap per execution, within what is left of the agent's max_turns, which
    // bounds the model calls of the whole invoke (docs/workflows.md).
    maxTurns: Math.min(component.max_turns ?? env.loopSetup.maxTurns, Math.max(0, env.loopSetup.maxTurns - run.modelCalls)),
    turnOffset: run.modelCalls,
    parent: context.parent,
    onCheckpoint: (loop) => env.checkpoint({ ...run, current: { component: component.name, loop } }),
  };
  const start: LoopState = context.progress?.loop ?? {
    messages: [...history, { role: 'user', content: prompt(context) }],
    turns: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
  const pendingTool = context.progress?.pending?.tool ?? '';
  const result = await runAgentLoop(setup, start, toolAnswer(context.decision, pendingTool));
  if (result.stop_reason === 'paused' && result.pending) {
    return {
      kind: 'paused',
      status: 'approval_required',
      pending: result.pending,
      progress: { component: component.name, loop: result.state, pending: result.pending },
    };
  }
  // Whatever the ending, the conversation so far becomes part of the run.
  const added = result.state.messages.slice(history.length);
  setOwn(run.flow.conversation_history, component.name, [...history, ...added]);
  run.messages.push(...added);
  addUsage(run.usage, result.state.usage);
  run.modelCalls += result.state.turns;
  if (result.stop_reason !== 'end_turn') {
    return { kind: 'stopped', stopReason: result.stop_reason === 'paused' ? 'error' : result.stop_reason, error: result.error };
  }
  writeOutputs(run.flow, component.name, { final_answer: result.output });
  run.flow.ui_chat_log.push({ type: 'agent', component: component.name, content: result.output });
  run.output = result.output;
  return { kind: 'done' };
}

/**
 * The component's toolset: named agent tools or built-ins; all agent tools when none is given.
 * load_skill (present only when skills are delivered on demand) is offered whatever the
 * toolset: every component's system prompt carries the skill catalog that tells it to call it.
 */
function toolset(names: readonly string[] | undefined, env: FlowEnv): Map<string, Tool> {
  if (!names) return new Map(env.tools);
  const tools = new Map<string, Tool>();
  for (const name of names) {
    const tool = env.tools.get(name) ?? env.fallbackTools.get(name);
    if (tool) tools.set(name, tool);
  }
  const loadSkill = env.tools.get(LOAD_SKILL);
  if (loadSkill) tools.set(LOAD_SKILL, loadSkill);
  return tools;
}

/**
 * The user message: the component's `prompt`, then each input as `<label>:` and its value
 * (strings as they are, other values as JSON); the flow's goal when there is neither.
 */
function prompt(context: ComponentContext): string {
  const { component, run } = context;
  const parts: string[] = [];
  if (component.prompt) parts.push(component.prompt);
  for (const { key, value } of readInputs(run.flow, component.inputs ?? [], `component "${component.name}"`)) {
    parts.push(`${key.label}:\n${stringifyValue(value)}`);
  }
  return parts.length ? parts.join('\n\n') : stringifyValue(run.flow.context.goal);
}
