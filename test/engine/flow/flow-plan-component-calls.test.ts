import { describe, expect, it } from 'vitest';
import { memoryLocator } from '../../../src/config/assert-format.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { FolderWorkspace } from '../../../src/engine/workspace/folder-workspace.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { buildEvidence, visibleCalls } from '../../../src/verdicts/evidence.js';
import { runChecks, validateChecks } from '../../../src/verdicts/run-checks.js';
import { scoreTestRun } from '../../../src/verdicts/test-run-verdict.js';
import { NO_MODEL_CALL, runScripted } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Runs a flow: plan component `p` (`steps`), then a deterministic echo step; returns its spans and flow state. */
async function runPlanFlow(steps: unknown[], files: Record<string, string> = {}) {
  const revision = revisionFromValue({
    id: 'plans',
    agent: { name: 'Plans' },
    flow: {
      entry_point: 'p',
      components: [
        { name: 'p', type: 'plan', inputs: [{ literal: 'note.txt', as: 'file' }], plan: { steps: [{ tools: steps }] } },
        { name: 'd', type: 'deterministic_step', tool_name: 'echo', inputs: [{ literal: 'fin', as: 'text' }] },
      ],
      routers: [
        { from: 'p', to: 'd' },
        { from: 'd', to: 'end' },
      ],
    },
  });
  const { turn, spans } = await runScripted(revision, NO_MODEL_CALL, { workspace: FolderWorkspace.at(tempDir(files)) });
  expect(turn.stop_reason).toBe('end_turn');
  const root = spans.find((span) => span.parent_id === null) as SpanRecord;
  return { spans, state: JSON.parse(String(root.attributes['agentcheck.flow.state'])) };
}

const READ_MISSING = [{ name: 'read_file', arguments: { path: 'missing.txt' } }];
const READ_NOTE = [
  { name: 'read_file', arguments: { path: '{{ file }}' }, returns: 'text' },
  { name: 'echo', arguments: { text: '{{ text }}' } },
];

/** The check results (status and reason) of `checks` on `spans`. */
function check(checks: unknown[], spans: SpanRecord[]) {
  validateChecks(checks, memoryLocator('scenario.yaml', ['expect', 'checks']));
  return runChecks(checks, buildEvidence({ spans })).map((result) => [result.status, result.reason]);
}

describe('flows: a plan component is recorded as one call named after it', () => {
  it('an execute_tool span (source flow, kind plan) under its component span, with the plan steps under it', async () => {
    const { spans, state } = await runPlanFlow(READ_NOTE, { 'note.txt': 'hello' });
    const component = spans.find((span) => span.name === 'component p') as SpanRecord;
    const call = spans.find((span) => span.name === 'execute_tool p') as SpanRecord;
    expect(call.parent_id).toBe(component.span_id);
    expect(call.attributes).toMatchObject({
      'agentcheck.tool.source': 'flow',
      'agentcheck.tool.kind': 'plan',
      'agentcheck.tool.outcome': 'ok',
      'gen_ai.tool.call.id': 'flow_p_1',
    });
    expect(JSON.parse(String(call.attributes['gen_ai.tool.call.arguments']))).toEqual({ file: 'note.txt' });
    for (const step of spans.filter((span) => span.name.startsWith('plan_step '))) expect(step.parent_id).toBe(call.span_id);
    // The flow state is what it was: the plan's result, no error.
    expect(state.context.p).toEqual({ tool_result: { variables: { file: 'note.txt', text: 'hello' }, log: ['hello'] }, error: null });
    expect(state.ui_chat_log[0]).toEqual({ type: 'plan', component: 'p', status: 'ok', log: ['hello'] });
    // The evidence sees it as a counted call; the calls inside it stay nested.
    const calls = buildEvidence({ spans }).calls.map((c) => [c.name, c.source, c.kind, c.nested]);
    expect(calls).toEqual([
      ['p', 'flow', 'plan', false],
      ['read_file', 'plan', 'builtin', true],
      ['echo', 'plan', 'builtin', true],
      ['echo', 'flow', 'builtin', false],
    ]);
    expect(visibleCalls(buildEvidence({ spans })).map((c) => c.name)).toEqual(['p', 'echo']);
  });

  it('a plan that returned: the verdict may name it as the terminal tool, tool_returned matches its result', async () => {
    const { spans } = await runPlanFlow(READ_NOTE, { 'note.txt': 'hello' });
    const score = scoreTestRun({ spans, stop_reason: 'end_turn', terminal_tool: 'p' });
    expect([score.verdict, score.verdict_reason]).toEqual(['pass', 'terminal tool p was called and returned a result']);
    expect(score.tools).toEqual([
      { name: 'p', called: 1, returned: 1, errors: 0 },
      { name: 'echo', called: 1, returned: 1, errors: 0 },
    ]);
    expect(check([{ no_tool_errors: {} }, { tool_returned: { tool: 'p', result: { log: ['hello'] } } }], spans)).toEqual([
      ['pass', 'no tool errors in 2 calls'],
      ['pass', 'p returned {"variables":{"file":"note.txt","text":"hello"},"log":["hello"]}'],
    ]);
  });

  it('a failed plan fails the verdict, no_tool_errors and tool_returned under the component name, as the flow state records it', async () => {
    const { spans, state } = await runPlanFlow(READ_MISSING);
    const error = state.context.p.error as string;
    expect(error).toMatch(/^plan step steps\[0\]\.tools\[0\]: tool "read_file" failed: no such file or directory: missing\.txt/);
    const call = spans.find((span) => span.name === 'execute_tool p') as SpanRecord;
    expect(call.attributes).toMatchObject({ 'agentcheck.tool.outcome': 'error', 'agentcheck.tool.is_error': true, 'error.type': 'plan_tool_failed' });
    expect([call.status, call.status_message]).toEqual(['error', error]);

    const score = scoreTestRun({ spans, stop_reason: 'end_turn', terminal_tool: 'echo' });
    expect([score.verdict, score.verdict_reason]).toEqual(['failed', `tool p failed: plan_tool_failed (${error})`]);
    expect(score.tools[0]).toEqual({ name: 'p', called: 1, returned: 0, errors: 1 });
    expect(check([{ no_tool_errors: {} }, { tool_returned: { tool: 'p' } }, { tool_returned: { tool: 'echo' } }], spans)).toEqual([
      ['fail', `expected no tool errors; call 1 (p) failed: plan_tool_failed (${error})`],
      ['fail', `expected p to return a result without error; it was called once: call 1 failed: plan_tool_failed (${error})`],
      ['pass', 'echo returned a result'],
    ]);
  });

  it('a plan that fails without a failed call (an undefined variable) fails the verdict too', async () => {
    const { spans, state } = await runPlanFlow([{ name: 'echo', arguments: { text: '{{ nothing }}' } }]);
    const error = state.context.p.error as string;
    expect(error).toContain('nothing');
    const score = scoreTestRun({ spans, stop_reason: 'end_turn', terminal_tool: 'echo' });
    expect([score.verdict, score.verdict_reason]).toEqual(['failed', `tool p failed: template_undefined (${error})`]);
  });
});
