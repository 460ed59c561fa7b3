import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../../src/engine/providers/scripted.js';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** An agent whose own root span (as the AI SDK's ai.generateText) starts before its model call through the bridge. */
const AGENT = `import fs from 'node:fs';
JSON.parse(fs.readFileSync(0, 'utf8'));
const [, traceId, parentId] = process.env.TRACEPARENT.split('-');
const start = String(BigInt(Date.now()) * 1000000n);
await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }) }).then((r) => r.text());
const span = { traceId, spanId: 'ab'.repeat(8), parentSpanId: parentId, name: 'ai.generateText', startTimeUnixNano: start,
  endTimeUnixNano: String(BigInt(Date.now()) * 1000000n) };
await fetch(process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }) });
process.stdout.write('done');
`;

describe("an external agent's own spans in its run", () => {
  it("are in start order with the run's (as spans.jsonl is documented), not after them", async () => {
    const dir = tempDir({ 'agent.mjs': AGENT });
    const record = await executeTestRun({
      agent: { id: 'ordered', external: { command: [process.execPath, join(dir, 'agent.mjs')] } },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      env: { PATH: process.env.PATH },
      timeout_ms: 120_000,
      model: new ScriptedModel([{ text: 'hi' }]),
    });
    await record.workspace.dispose();
    expect(record.turn.error).toBeUndefined();
    const names = record.spans.map((span) => span.name);
    expect(names).toContain('ai.generateText');
    expect(names.some((name) => name.startsWith('chat '))).toBe(true);
    // Before, the agent's span came last, after the bridge's chat span that started after it.
    const starts = record.spans.map((span) => span.start_ms);
    expect(starts, JSON.stringify(record.spans.map((span) => [span.name, span.start_ms]))).toEqual([...starts].sort((a, b) => a - b));
  }, 120_000);
});
