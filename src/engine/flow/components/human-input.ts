import { humanAnswer } from '../../checkpoint/resume-decision.js';
import { ATTR } from '../../../spans/conventions.js';
import { policyAnswer } from '../../permissions/approval-policy.js';
import { writeOutputs } from '../flow-state.js';
import { componentCall, type ComponentContext, type ComponentOutcome } from './component.js';

/**
 * A `human_input` component (docs/workflows.md, Flows): answered by the resume decision, else by the
 * approval policy (`approvals.tools[<component>]`, then `approvals.default`), else it pauses
 * the run. approve -> `context:<name>.decision` "approve"; deny or reject -> "reject"; any other
 * text -> `context:<name>.response` (decision null). Its inputs are shown as the question.
 */
export async function runHumanInput(context: ComponentContext): Promise<ComponentOutcome> {
  const { component, run, env } = context;
  const question = componentCall(component, run);
  const given = context.decision ?? policyAnswer(env.approvals, component.name);
  if (given === undefined) {
    context.span.setAttribute(ATTR.humanInputDecision, 'pending');
    const pending = { id: `human_input_${question.tool_call_id}`, ...question };
    return { kind: 'paused', status: 'input_required', pending, progress: { component: component.name, pending } };
  }
  const answer = humanAnswer(given);
  context.span.setAttribute(ATTR.humanInputDecision, answer.decision ?? 'response');
  writeOutputs(run.flow, component.name, { decision: answer.decision, response: answer.response });
  run.flow.ui_chat_log.push({ type: 'human_input', component: component.name, decision: answer.decision, response: answer.response });
  return { kind: 'done' };
}
