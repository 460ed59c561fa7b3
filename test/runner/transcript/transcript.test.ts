import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Model, ModelRequest } from '../../../src/engine/model/model.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { captureContent } from '../../../src/engine/content-capture.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { readReportFile } from '../../../src/runner/merge/read-report-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

const agentFile = join(import.meta.dirname, '../../../fixtures/agents/support-bot.yaml');
const SECRET = 'sk-test-0123456789abcdef';
const script = [
  { tool_calls: [{ name: 'lookup_order', args: { order_id: '1234', api_key: 'hunter2-hunter2' } }] },
  { text: `Order 1234 is delivered (key ${SECRET}).` },
];
const inputs = { messages: [{ role: 'user' as const, content: 'Where is order 1234?' }] };

function chatSpans(spans: Array<{ name: string; attributes: Record<string, unknown> }>) {
  return spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
}

describe('message content on chat spans', () => {
  it('is captured for a scripted model in the GenAI message shape, secrets scrubbed', async () => {
    const record = await executeTestRun({ agent: agentFile, inputs, script, env: { OPENAI_API_KEY: SECRET } });
    await record.workspace.dispose();
    const [first, second] = chatSpans(record.spans);
    expect(JSON.parse(first.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Where is order 1234?' }] },
    ]);
    expect(JSON.parse(first.attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_calls',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'lookup_order', arguments: { order_id: '1234', api_key: '[redacted]' } }],
      },
    ]);
    expect(JSON.parse(first.attributes['gen_ai.system_instructions'] as string)[0].content).toContain('support agent');
    const input = JSON.parse(second.attributes['gen_ai.input.messages'] as string);
    expect(input.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(input[2].parts[0]).toMatchObject({ type: 'tool_call_response', id: 'call_1' });
    expect(input[2].parts[0].response).toContain('Invalid arguments for lookup_order');
    const output = second.attributes['gen_ai.output.messages'] as string;
    expect(output).toContain('[redacted]');
    expect(output).not.toContain(SECRET);
  });

  it('is off when the environment switch says false', async () => {
    const record = await executeTestRun({ agent: agentFile, inputs, script, env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false' } });
    await record.workspace.dispose();
    for (const span of chatSpans(record.spans)) expect(span.attributes['gen_ai.input.messages']).toBeUndefined();
  });

  it('is opt-in for a live model: off by default, on with the switch', async () => {
    const live: Model = {
      provider: 'openai',
      modelId: 'gpt-live',
      generate: async (_request: ModelRequest) => ({
        text: 'hi',
        toolCalls: [],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    };
    const off = await executeTestRun({ agent: agentFile, inputs, model: live, env: {} });
    await off.workspace.dispose();
    expect(chatSpans(off.spans)[0].attributes['gen_ai.input.messages']).toBeUndefined();
    const on = await executeTestRun({ agent: agentFile, inputs, model: live, env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' } });
    await on.workspace.dispose();
    expect(JSON.parse(chatSpans(on.spans)[0].attributes['gen_ai.output.messages'] as string)[0].parts).toEqual([{ type: 'text', content: 'hi' }]);
  });

  it('is on by default for cassette runs, also of a live provider', () => {
    const live = revisionFromValue({ id: 'live', agent: { name: 'Live', llm: { provider: 'openai', model: 'gpt-4.1-mini' } } }, 'test');
    expect(captureContent(live, {}, {})).toBe(false);
    expect(captureContent(live, { cassette: { mode: 'replay' } }, {})).toBe(true);
    expect(captureContent(live, { cassette: { mode: 'replay' } }, { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'false' })).toBe(false);
  });

  it('refuses a switch value other than true or false', async () => {
    await expect(executeTestRun({ agent: agentFile, inputs, script, env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'yes' } })).rejects.toThrow(
      /OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT.*expected true or false, got "yes"/,
    );
  });
});

describe('report row transcript', () => {
  it('keeps the messages as the model saw them, with secrets scrubbed, and survives the report reader', async () => {
    const dir = tempDir({
      'x.scenario.yaml': `name: where
agent: ${agentFile}
inputs: {messages: [{role: user, content: "Where is order 1234?"}]}
model: {script: [{tool_calls: [{name: lookup_order, args: {order_id: "1234"}}]}, {text: "Delivered, key ${SECRET}"}]}
expect: {checks: [{tool_called: {tool: lookup_order}}]}
`,
    });
    const [scenario] = loadScenarioFile({ file: join(dir, 'x.scenario.yaml'), root: dir }, { agents: new Map() });
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0, env: { GITHUB_TOKEN: SECRET } });
    expect(row.transcript).toEqual([
      { role: 'user', content: 'Where is order 1234?' },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: 'call_1', tool_name: 'lookup_order', input: { order_id: '1234' } }] },
      { role: 'tool', tool_call_id: 'call_1', tool_name: 'lookup_order', content: expect.stringContaining('delivered'), is_error: false },
      { role: 'assistant', content: 'Delivered, key [redacted]' },
    ]);
    const report = { schema: 'agentcheck.report/1', summary: { total: 1 }, scenarios: [row] };
    const file = join(tempDir({ 'report.json': JSON.stringify(report) }), 'report.json');
    expect(readReportFile(file, dir).scenarios[0].transcript).toHaveLength(4);
    const broken = { ...report, scenarios: [{ ...row, transcript: [{ role: 'robot', content: 'x' }] }] };
    const brokenFile = join(tempDir({ 'report.json': JSON.stringify(broken) }), 'report.json');
    expect(() => readReportFile(brokenFile, dir)).toThrow(/transcript\[0\] to be a message/);
  });
});
