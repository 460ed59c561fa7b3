import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../../src/engine/providers/scripted.js';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { check } from '../../verdicts/check-helpers.js';

/**
 * An agent that exports `chat` spans of model calls it made itself, each with usage, after
 * asking the bridge once when BRIDGE is set (and exporting its own span of that call too).
 */
const AGENT = `import fs from 'node:fs';
import crypto from 'node:crypto';
JSON.parse(fs.readFileSync(0, 'utf8'));
const [, traceId, parentId] = process.env.TRACEPARENT.split('-');
let t = BigInt(Date.now()) * 1000000n;
const attr = (o) => Object.entries(o).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: String(v) } }));
const chat = (input, output) => { t += 1000000n; return { traceId, spanId: crypto.randomBytes(8).toString('hex'), parentSpanId: parentId, name: 'chat gpt-4o',
  startTimeUnixNano: String(t), endTimeUnixNano: String(t + 500000n), status: {},
  attributes: attr({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output }) }; };
if (process.env.BRIDGE) {
  await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }) }).then((r) => r.text());
}
const spans = [chat(100, 10), chat(200, 20)];
await fetch(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }) });
process.stdout.write('remote model answered');
`;

async function run(env: Record<string, string>, model?: ScriptedModel) {
  const dir = tempDir({ 'agent.mjs': AGENT });
  const record = await executeTestRun(
    {
      agent: { id: 'chat-otlp', external: { command: [process.execPath, join(dir, 'agent.mjs')], env } },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      env: { PATH: process.env.PATH },
      timeout_ms: 120_000,
      model,
    },
    undefined,
    {},
  );
  await record.workspace.dispose();
  return record;
}

describe("an external agent's own model calls (chat spans it exported)", () => {
  it('count their tokens into the run usage when they bypassed the bridge, so max_tokens sees them', async () => {
    const record = await run({});
    expect(record.turn.usage).toEqual({ input_tokens: 300, output_tokens: 30 });
    expect(record.evidence.usage).toEqual({ input_tokens: 300, output_tokens: 30 });
    expect(record.evidence.turns).toBe(2);
    expect(check('max_tokens', 50, record.evidence)).toMatchObject({ status: 'fail' });
    const root = record.spans.find((span) => span.parent_id === null)!;
    expect(root.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 300, 'gen_ai.usage.output_tokens': 30 });
  }, 120_000);

  it('are not counted again when the bridge saw the model calls: its usage is the record', async () => {
    const record = await run({ BRIDGE: '1' }, new ScriptedModel([{ text: 'hi' }]));
    const bridgeChat = record.spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(bridgeChat).toHaveLength(1);
    expect(record.turn.usage).toEqual({
      input_tokens: bridgeChat[0].attributes['gen_ai.usage.input_tokens'],
      output_tokens: bridgeChat[0].attributes['gen_ai.usage.output_tokens'],
    });
    expect(record.evidence.usage).toEqual(record.turn.usage);
    expect(record.turn.usage.input_tokens).toBeLessThan(100);
  }, 120_000);
});
