import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** An agent that sends its tool call's span without times (refused: 400), unless GOOD, and a metrics export to /v1/metrics (404). */
const AGENT = `import fs from 'node:fs';
JSON.parse(fs.readFileSync(0, 'utf8'));
const [, traceId, parentId] = process.env.TRACEPARENT.split('-');
const now = String(BigInt(Date.now()) * 1000000n);
const times = process.env.GOOD ? { startTimeUnixNano: now, endTimeUnixNano: now } : {};
const span = { traceId, spanId: 'ab'.repeat(8), parentSpanId: parentId, name: 'ai.toolCall', ...times, attributes: [
  { key: 'ai.toolCall.name', value: { stringValue: 'lookup' } }, { key: 'ai.toolCall.id', value: { stringValue: 'c1' } }] };
const post = (path, body) => fetch(process.env.OTEL_EXPORTER_OTLP_ENDPOINT + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
await post('/v1/metrics', { resourceMetrics: [] });
const res = await post('/v1/traces', { resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
process.stdout.write('looked it up (export ' + res.status + ')');
`;

async function run(env: Record<string, string>) {
  const dir = tempDir({ 'agent.mjs': AGENT });
  const record = await executeTestRun({
    agent: { id: 'refused', external: { command: [process.execPath, join(dir, 'agent.mjs')], env } },
    inputs: { messages: [{ role: 'user', content: 'go' }] },
    expectations: { terminal_tool: 'lookup' },
    env: { PATH: process.env.PATH },
    timeout_ms: 120_000,
  });
  await record.workspace.dispose();
  return record;
}

describe("an external agent whose span exports the run's receiver refused", () => {
  it('errors the run naming the refusal (no pass on the evidence left), keeping its output and spans', async () => {
    const record = await run({});
    // Before, the run passed: the refusal was only an attribute of the root span.
    expect(record.turn.error).toEqual({
      type: 'OTLP_EXPORT_REFUSED',
      message:
        "the run's OTLP receiver refused an export of the agent's spans, which are not evidence: HTTP 400 resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: expected the span's start time in nanoseconds since the epoch (OTLP requires it), got nothing",
    });
    expect(record.result.verdict).toBe('failed');
    expect(record.result.verdict_reason).toContain('OTLP_EXPORT_REFUSED');
    expect(record.result.output).toBe('looked it up (export 400)');
    const root = record.spans.find((span) => span.parent_id === null)!;
    expect(root.status).toBe('error');
    expect(root.attributes['agentcheck.external.rejected']).toEqual([expect.stringMatching(/^404 no such path \/v1\/metrics/), expect.stringMatching(/^400 /)]);
  }, 120_000);

  it("passes when only a request that is no trace export (an exporter's /v1/metrics) was refused", async () => {
    const record = await run({ GOOD: '1' });
    expect(record.turn.error).toBeUndefined();
    expect(record.result.verdict, record.result.verdict_reason).toBe('pass');
    expect(record.evidence.calls.map((call) => call.name)).toEqual(['lookup']);
  }, 120_000);
});
