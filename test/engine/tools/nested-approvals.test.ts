import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { build, runScripted, toolSpans } from '../../helpers/run-agent.js';

const danger = { name: 'danger', description: 'Gated.', permission: 'ask', parameters: { type: 'object' }, returns: { ok: true } };
const chain = {
  name: 'guarded',
  description: 'A chain whose first step is gated.',
  parameters: { type: 'object' },
  read_only: true,
  chain: {
    steps: [
      { id: 'a', tool: 'danger', inputs: {}, on_success: { next: 'end' }, on_failure: { next: 'b' } },
      { id: 'b', tool: 'echo', inputs: { text: 'handled' } },
    ],
  },
};
const plan = {
  name: 'planned',
  description: 'A plan calling a gated tool.',
  parameters: { type: 'object' },
  plan: { steps: [{ tools: [{ name: 'danger', arguments: {} }] }] },
};
const approvalSpans = (spans: SpanRecord[]) => spans.filter((span) => span.name.startsWith('approval '));

describe('a gated call inside a chain or plan, which cannot pause', () => {
  it('fails that step as approval_required, with no approval listed as pending', async () => {
    const { turn, spans } = await runScripted(build({ tools: [danger, chain] }), [{ tool_calls: [{ name: 'guarded', args: {} }] }, { text: 'done' }]);
    expect(turn.stop_reason).toBe('end_turn');
    // Nobody was asked: no approval span, so `approvals` and the approval check see no gate.
    expect(approvalSpans(spans)).toEqual([]);
    const nested = toolSpans(spans).find((span) => span.name === 'execute_tool danger')!;
    expect(nested.attributes).toMatchObject({
      'agentcheck.tool.refused': 'approval_required',
      'agentcheck.tool.outcome': 'error',
      'error.type': 'approval_required',
    });
    expect(nested.status).toBe('error');
    // The chain took its on_failure route, naming why the step failed.
    const outer = toolSpans(spans).find((span) => span.name === 'execute_tool guarded')!;
    const result = JSON.parse(String(outer.attributes['gen_ai.tool.call.result']));
    expect(result.success).toBe(true);
    expect(result.results[0]).toMatchObject({
      step_id: 'a',
      status: 'failed',
      failure: expect.stringContaining('needs approval, which a chain cannot wait for'),
    });
    expect(result.results[1]).toMatchObject({ step_id: 'b', status: 'success', result: 'handled' });
  });

  it('fails a plan with the reason and what to do', async () => {
    const { spans } = await runScripted(build({ tools: [danger, plan] }), [{ tool_calls: [{ name: 'planned', args: {} }] }, { text: 'done' }]);
    expect(approvalSpans(spans)).toEqual([]);
    const outer = toolSpans(spans).find((span) => span.name === 'execute_tool planned')!;
    expect(outer.attributes['error.type']).toBe('plan_tool_failed');
    expect(String(outer.attributes['gen_ai.tool.call.result'])).toContain(
      'plan step steps[0].tools[0]: tool \\"danger\\" needs approval, which a plan cannot wait for; allow the tool or answer it in the approval policy',
    );
  });

  it('runs the call when the approval policy answers it, recording that decision', async () => {
    const { spans } = await runScripted(build({ tools: [danger, chain] }), [{ tool_calls: [{ name: 'guarded', args: {} }] }, { text: 'done' }], {
      approvals: { tools: { danger: 'approve' } },
    });
    expect(approvalSpans(spans).map((span) => span.attributes['agentcheck.approval.decision'])).toEqual(['approve']);
    const nested = toolSpans(spans).find((span) => span.name === 'execute_tool danger')!;
    expect(nested.attributes['agentcheck.tool.outcome']).toBe('ok');
    expect(toolSpans(spans).map((span) => span.name)).not.toContain('execute_tool echo');
  });
});
