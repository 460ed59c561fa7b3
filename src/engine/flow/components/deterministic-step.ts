import { toolAnswer } from '../../checkpoint/resume-decision.js';
import { markFailed } from '../../with-span.js';
import { failureMessage, isFailedCall } from '../../tools/failed-call.js';
import { writeOutputs } from '../flow-state.js';
import { componentCall, type ComponentContext, type ComponentOutcome } from './component.js';

/**
 * A `deterministic_step` (docs/workflows.md, Flows): calls its tool with arguments taken from its inputs
 * (name = `as`, else the last sub key) through the shared call path, then writes
 * `context:<name>.tool_result` and `context:<name>.error` (null on success, so a stale error
 * never survives; on failure the message, see failureMessage) and one ui_chat_log entry. A
 * failing tool never throws out of the flow; a gated call nobody answered pauses it.
 */
export async function runDeterministicStep(context: ComponentContext): Promise<ComponentOutcome> {
  const { component, run, env } = context;
  const { tool, tool_call_id: callId, args } = componentCall(component, run);
  const call = await env.loopSetup.caller.call({
    name: tool,
    args,
    source: 'flow',
    parent: context.parent,
    callId,
    decision: toolAnswer(context.decision, tool),
  });
  if (call.outcome === 'pending') {
    const pending = { id: `approval_${callId}`, tool, tool_call_id: callId, args };
    return { kind: 'paused', status: 'approval_required', pending, progress: { component: component.name, pending } };
  }
  // Failed as a chain step counts it (docs/workflows.md); the call path marked its span the same way.
  const failed = isFailedCall(call);
  // The message, not the serialised result: a failed chain or http call returns an object.
  const error = failed ? failureMessage(call.result) : null;
  writeOutputs(run.flow, component.name, failed ? { tool_result: null, error } : { tool_result: call.result, error: null });
  const entry: Record<string, unknown> = { type: 'tool', component: component.name, tool, arguments: args, status: failed ? 'error' : 'ok' };
  if (error !== null) {
    entry.error = error;
    markFailed(context.span, call.errorType ?? 'tool_error', error);
  }
  run.flow.ui_chat_log.push(entry);
  return { kind: 'done' };
}
