import { RunError } from '../../../config/errors.js';
import { runPlan } from '../../plan/run-plan.js';
import type { PlanSpec } from '../../revision/types.js';
import { markFailed } from '../../with-span.js';
import { writeOutputs } from '../flow-state.js';
import { readInputs } from '../io-key.js';
import type { ComponentContext, ComponentOutcome } from './component.js';

/**
 * A `plan` component: runs its STEP plan (docs/workflows.md, STEP plans) with its inputs as variables and,
 * like a deterministic step, writes `context:<name>.tool_result` (`{variables, log}`) and
 * `context:<name>.error`, so a failing plan never throws out of the flow.
 */
export async function runPlanComponent(context: ComponentContext): Promise<ComponentOutcome> {
  const { component, run, env } = context;
  const inputs: Record<string, unknown> = {};
  for (const { key, value } of readInputs(run.flow, component.inputs ?? [], `component "${component.name}"`)) inputs[key.name] = value;
  const caller = env.loopSetup.caller;
  try {
    const result = await runPlan(component.plan as PlanSpec, inputs, {
      callTool: (call) => caller.call(call),
      tracer: env.loopSetup.tracer,
      parent: context.parent,
    });
    writeOutputs(run.flow, component.name, { tool_result: result, error: null });
    run.flow.ui_chat_log.push({ type: 'plan', component: component.name, status: 'ok', log: result.log });
  } catch (error) {
    if (!(error instanceof RunError)) throw error;
    writeOutputs(run.flow, component.name, { tool_result: null, error: error.message });
    run.flow.ui_chat_log.push({ type: 'plan', component: component.name, status: 'error', error: error.message });
    markFailed(context.span, error.code.toLowerCase(), error.message);
  }
  return { kind: 'done' };
}
