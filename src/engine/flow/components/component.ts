import type { Context, Span } from '@opentelemetry/api';
import { setOwn } from '../../../config/own-key.js';
import type { ResumeDecision } from '../../checkpoint/resume-decision.js';
import type { LoopSetup } from '../../loop/agent-loop.js';
import type { ApprovalPolicy } from '../../permissions/approval-policy.js';
import type { ComponentSpec, FlowSpec } from '../../revision/types.js';
import type { Tool } from '../../tools/tool.js';
import type { PendingInteraction, StopReason } from '../../turn.js';
import type { ComponentProgress, FlowRunState } from '../flow-state.js';
import { readInputs } from '../io-key.js';

/** What every component of one flow run shares: the invoke's set-up. */
export interface FlowEnv {
  flow: FlowSpec;
  /** The invoke's agent-loop set-up (model, caller, tracer); components override parent and tools. */
  loopSetup: LoopSetup;
  /** The agent's tools by name. */
  tools: ReadonlyMap<string, Tool>;
  /** Built-ins by their own names (toolsets and deterministic steps may name them). */
  fallbackTools: ReadonlyMap<string, Tool>;
  approvals?: ApprovalPolicy;
  /** The agent's instructions, used when a component gives none. */
  agentInstructions: string;
  /** Delivered skills, appended to every agent component's system prompt. */
  skillsPrompt: string;
  /** Saves a checkpoint of the run (does nothing without a checkpointer). */
  checkpoint(run: FlowRunState): Promise<void>;
}

/** One execution of one component. */
export interface ComponentContext {
  component: ComponentSpec;
  /** The run; components update its channels in place. */
  run: FlowRunState;
  env: FlowEnv;
  /** The context of this execution's `component {name}` span. */
  parent: Context;
  span: Span;
  /** Where a resumed component left off. */
  progress?: ComponentProgress;
  /** The answer a resumed component was given. */
  decision?: ResumeDecision;
}

/** How a component execution ended. */
export type ComponentOutcome =
  | { kind: 'done' }
  | { kind: 'paused'; status: 'input_required' | 'approval_required'; progress: ComponentProgress; pending: PendingInteraction }
  | { kind: 'stopped'; stopReason: Exclude<StopReason, 'end_turn' | 'paused'>; error?: { type: string; message: string } };

/** Runs one component type. */
export type ComponentRunner = (context: ComponentContext) => Promise<ComponentOutcome>;

/** The call id of a component's gated call or question, stable across a pause and its resume. */
export function interactionId(context: ComponentContext): string {
  return flowCallId(context.component.name, context.run.executions);
}

/** The call id of component `name`'s call or question in a flow that has run `executions` components. */
export function flowCallId(name: string, executions: number): string {
  return `flow_${name}_${executions + 1}`;
}

/** The call a deterministic_step or human_input makes: its tool (a human_input's own name), call id and arguments. */
export interface ComponentCall {
  tool: string;
  tool_call_id: string;
  args: Record<string, unknown>;
}

/**
 * The call a deterministic_step (its tool_name) or a human_input (named after itself, its inputs
 * shown as the question) makes from the flow state `run`: what it pauses at and makes again when
 * resumed, so a flow checkpoint's pending call is held to it (checkpoint/flow-pending-fit.ts).
 * Throws FLOW_MISSING_INPUT for a required input the state does not hold (readInputs).
 */
export function componentCall(component: ComponentSpec, run: Pick<FlowRunState, 'flow' | 'executions'>): ComponentCall {
  const args: Record<string, unknown> = {};
  for (const { key, value } of readInputs(run.flow, component.inputs ?? [], `component "${component.name}"`)) setOwn(args, key.name, value);
  const tool = component.type === 'human_input' ? component.name : (component.tool_name as string);
  return { tool, tool_call_id: flowCallId(component.name, run.executions), args };
}
