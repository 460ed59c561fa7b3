import { setOwn } from '../../../config/own-key.js';
import { createPlanTool } from '../../plan/plan-tool.js';
import type { PlanSpec } from '../../revision/types.js';
import { failureMessage, isFailedCall } from '../../tools/failed-call.js';
import { markFailed } from '../../with-span.js';
import { writeOutputs } from '../flow-state.js';
import { readInputs } from '../io-key.js';
import { interactionId, type ComponentContext, type ComponentOutcome } from './component.js';

/**
 * A `plan` component: runs its STEP plan (docs/workflows.md, STEP plans) with its inputs as variables and,
 * like a deterministic step, writes `context:<name>.tool_result` (`{variables, log}`) and
 * `context:<name>.error`, so a failing plan never throws out of the flow. The plan runs as a call
 * of a plan tool named after the component (source `flow`), so its execute_tool span carries
 * its failure to the verdict and tool checks as a deterministic step's does (docs/verdicts.md).
 */
export async function runPlanComponent(context: ComponentContext): Promise<ComponentOutcome> {
  const { component, run, env } = context;
  const inputs: Record<string, unknown> = {};
  for (const { key, value } of readInputs(run.flow, component.inputs ?? [], `component "${component.name}"`)) setOwn(inputs, key.name, value);
  const tool = createPlanTool({ name: component.name, plan: component.plan as PlanSpec });
  const call = await env.loopSetup.caller.callComposite(tool, {
    name: component.name,
    args: inputs,
    source: 'flow',
    parent: context.parent,
    callId: interactionId(context),
  });
  if (isFailedCall(call)) {
    const error = failureMessage(call.result);
    writeOutputs(run.flow, component.name, { tool_result: null, error });
    run.flow.ui_chat_log.push({ type: 'plan', component: component.name, status: 'error', error });
    markFailed(context.span, call.errorType ?? 'tool_error', error);
  } else {
    const result = call.result as { log: unknown };
    writeOutputs(run.flow, component.name, { tool_result: result, error: null });
    run.flow.ui_chat_log.push({ type: 'plan', component: component.name, status: 'ok', log: result.log });
  }
  return { kind: 'done' };
}
