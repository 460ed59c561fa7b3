import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startExternalSpanCollector, type ExternalSpanCollector } from '../../../src/runner/external-spans/external-span-collector.js';
import { startOtlpReceiver } from '../../../src/spans/otlp-receiver.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';

let collector: ExternalSpanCollector | undefined;

afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

const RUN_TRACE = '1'.repeat(32);
const root: SpanRecord = {
  trace_id: RUN_TRACE,
  span_id: 'a'.repeat(16),
  parent_id: null,
  name: 'invoke_agent bot',
  kind: 'internal',
  status: 'ok',
  start_ms: 1,
  end_ms: 2,
  duration_ms: 1,
  attributes: { 'gen_ai.operation.name': 'invoke_agent' },
  ended: true,
};

function exportBody(name: string, callId: string): string {
  const attributes = [
    { key: 'ai.operationId', value: { stringValue: 'ai.toolCall' } },
    { key: 'ai.toolCall.name', value: { stringValue: name } },
    { key: 'ai.toolCall.id', value: { stringValue: callId } },
  ];
  return JSON.stringify({
    resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '2'.repeat(32), spanId: 'b'.repeat(16), name: 'ai.toolCall', attributes }] }] }],
  });
}

describe("collecting an external agent's spans after its turn", () => {
  it('collects spans whose export is still arriving when the turn ends, before anything is scored', async () => {
    const receiver = await startOtlpReceiver();
    collector = await startExternalSpanCollector({}, receiver);
    // The agent's exporter has started sending when the turn ends; the rest of the body comes later.
    const body = exportBody('read_file', 'call_9');
    const req = request(`${collector.endpoint}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    });
    const answered = new Promise<number>((resolve) => req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0))));
    req.write(body.slice(0, 10));
    while (receiver.pending === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const collecting = collector.collect([root]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.end(body.slice(10));
    const spans = await collecting;
    expect(await answered).toBe(200);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      name: 'execute_tool read_file',
      trace_id: RUN_TRACE,
      parent_id: root.span_id,
      attributes: { 'gen_ai.tool.call.id': 'call_9' },
    });
  });

  it("records exports the receiver refused on the run's root span", async () => {
    collector = await startExternalSpanCollector();
    await fetch(`${collector.endpoint}/v1/traces`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    const runRoot = { ...root };
    expect(await collector.collect([runRoot])).toEqual([]);
    expect(runRoot.attributes['agentcheck.external.rejected']).toEqual([expect.stringMatching(/^415 unsupported content type "text\/plain"/)]);
  });
});
