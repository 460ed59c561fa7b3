import { RunError } from '../../config/errors.js';
import { ATTR, SPAN } from '../../spans/conventions.js';
import type { ResumeDecision } from '../checkpoint/resume-decision.js';
import { describeError } from '../loop/agent-loop.js';
import type { Message } from '../model/message.js';
import { runAborted, throwIfRunAborted } from '../run-aborted.js';
import type { Usage } from '../model/model.js';
import { addUsage } from '../model/usage.js';
import type { PendingInteraction, StopReason } from '../turn.js';
import { markFailed, withSpan } from '../with-span.js';
import type { FlowEnv } from './components/component.js';
import { COMPONENT_RUNNERS } from './components/index.js';
import { componentHistory, type FlowRunState, type FlowState } from './flow-state.js';
import { nextComponent } from './route.js';

// Re-exported so invoke-side callers import the flow's types from one place.
export type { FlowEnv } from './components/component.js';
export type { FlowRunState, FlowState } from './flow-state.js';

/** Component executions after which a flow stops, so a router cycle cannot run forever. */
export const MAX_FLOW_EXECUTIONS = 100;

/** What runFlow needs: the shared set-up, where to start, and a resume decision. */
export interface FlowRunInput {
  env: FlowEnv;
  /** Where to start: a fresh run (initialFlowRun) or a checkpoint's state. Not modified. */
  start: FlowRunState;
  /** The answer for the component the start state is waiting on (resume). */
  decision?: ResumeDecision;
  /** `agentcheck.flow.name`: the flow's name, else the build id. */
  flowName: string;
}

/** How a flow run ended, with what the turn and the root span need. */
export interface FlowRunResult {
  /** The run state at the end (what a checkpoint of this point holds). */
  run: FlowRunState;
  /** The transcript, including a paused agent component's messages so far. */
  messages: Message[];
  output: string;
  stop_reason: StopReason;
  usage: Usage;
  /** Model calls so far, including a paused component's. */
  modelCalls: number;
  pending?: PendingInteraction;
  error?: { type: string; message: string };
  flowState: FlowState;
}

/**
 * Runs a flow (docs/workflows.md, Flows) under an `invoke_workflow {flow}` span: each component in a
 * `component {name}` span, then its router picks the next one, with a checkpoint after each
 * component. Never throws: routing and input errors end the run with stop_reason `error`.
 */
export async function runFlow(input: FlowRunInput): Promise<FlowRunResult> {
  const { env } = input;
  const run = structuredClone(input.start);
  const tracer = env.loopSetup.tracer;
  const attributes = { [ATTR.operationName]: SPAN.invokeWorkflow, [ATTR.workflowName]: input.flowName, [ATTR.flowName]: input.flowName };
  try {
    return await withSpan(tracer, `${SPAN.invokeWorkflow} ${input.flowName}`, attributes, env.loopSetup.parent, async (flowContext, flowSpan) => {
      run.flow.status = 'running';
      let decision = input.decision;
      while (run.next !== null) {
        if (run.executions >= MAX_FLOW_EXECUTIONS) {
          throw new RunError(
            'FLOW_MAX_STEPS',
            `flow stopped before "${run.next}": it ran ${MAX_FLOW_EXECUTIONS} components; check the routers for a cycle that never reaches end`,
          );
        }
        throwIfRunAborted(env.loopSetup.signal);
        const name = run.next;
        const component = env.flow.components.find((candidate) => candidate.name === name);
        if (!component) throw new RunError('FLOW_UNKNOWN_COMPONENT', `a router leads to "${name}", which names no component`);
        const progress = run.current?.component === name ? run.current : undefined;
        const componentAttributes = { [ATTR.componentName]: name, [ATTR.componentType]: component.type };
        const outcome = await withSpan(tracer, `${SPAN.component} ${name}`, componentAttributes, flowContext, async (parent, span) => {
          const ended = await COMPONENT_RUNNERS[component.type]({ component, run, env, parent, span, progress, decision: progress ? decision : undefined });
          // A component that ended the run with an error failed, as its span says (docs/spans.md).
          if (ended.kind === 'stopped' && ended.error) markFailed(span, ended.error.type, ended.error.message);
          return ended;
        });
        decision = undefined;
        if (outcome.kind === 'paused') {
          run.current = outcome.progress;
          run.flow.status = outcome.status;
          await env.checkpoint(run);
          return finish(run, 'paused', outcome.pending);
        }
        run.current = undefined;
        if (outcome.kind === 'stopped') {
          run.flow.status = outcome.stopReason;
          if (outcome.error) markFailed(flowSpan, outcome.error.type, outcome.error.message);
          return finish(run, outcome.stopReason, undefined, outcome.error);
        }
        run.executions++;
        run.next = component.type === 'end' ? null : nextComponent(env.flow, name, run.flow);
        await env.checkpoint(run);
      }
      run.flow.status = 'completed';
      return finish(run, 'end_turn');
    });
  } catch (error) {
    run.flow.status = 'error';
    // Once the run's signal aborted, that is why it ended, whichever component it cut short.
    const signal = env.loopSetup.signal;
    return finish(run, 'error', undefined, describeError(signal?.aborted ? runAborted(signal) : error));
  }
}

/** The result for the run as it stands, counting a paused agent component's work so far. */
function finish(run: FlowRunState, stopReason: StopReason, pending?: PendingInteraction, error?: { type: string; message: string }): FlowRunResult {
  const messages = [...run.messages];
  const usage = { ...run.usage };
  let modelCalls = run.modelCalls;
  const loop = run.current?.loop;
  if (loop && run.current) {
    const history = componentHistory(run.flow, run.current.component).length;
    messages.push(...loop.messages.slice(history));
    addUsage(usage, loop.usage);
    modelCalls += loop.turns;
  }
  const result: FlowRunResult = { run, messages, output: run.output, stop_reason: stopReason, usage, modelCalls, flowState: run.flow };
  if (pending) result.pending = pending;
  if (error) result.error = error;
  return result;
}
