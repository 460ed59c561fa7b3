import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startExternalSpanCollector, type ExternalSpanCollector } from '../../../src/runner/external-spans/external-span-collector.js';
import { startOtlpReceiver } from '../../../src/spans/otlp-receiver.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { buildEvidence, visibleCalls } from '../../../src/verdicts/evidence.js';

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
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: '2'.repeat(32),
                spanId: 'b'.repeat(16),
                name: 'ai.toolCall',
                startTimeUnixNano: '1700000000000000000',
                endTimeUnixNano: '1700000000500000000',
                attributes,
              },
            ],
          },
        ],
      },
    ],
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

  it('waits once when nothing arrives after the wait before the leftovers were ended (settle), again when an export came since', async () => {
    const receiver = await startOtlpReceiver();
    const waits: boolean[] = [];
    const counted = Object.assign(Object.create(receiver) as typeof receiver, {
      whenQuiet: async (options: { quietMs: number; maxMs: number }) => {
        const quiet = await receiver.whenQuiet(options);
        waits.push(quiet);
        return quiet;
      },
    });
    collector = await startExternalSpanCollector({}, counted);
    await collector.settle();
    expect(await collector.collect([root])).toEqual([]);
    expect(waits).toEqual([true]);
    const sent = await fetch(`${collector.endpoint}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: exportBody('read_file', 'call_1'),
    });
    expect(sent.status).toBe(200);
    expect(await collector.collect([root])).toHaveLength(1);
    expect(waits).toEqual([true, true]);
  });

  it('orders tool spans that start at the same instant as they arrived: export order, then request order, whatever their span ids', async () => {
    collector = await startExternalSpanCollector();
    const start = String(BigInt(Date.now()) * 1_000_000n);
    const tool = (spanId: string, name: string) => ({
      traceId: RUN_TRACE,
      spanId,
      parentSpanId: root.span_id,
      name: `execute_tool ${name}`,
      startTimeUnixNano: start,
      endTimeUnixNano: start,
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
        { key: 'gen_ai.tool.name', value: { stringValue: name } },
      ],
    });
    // Span ids sort against the arrival order, so an order by id would read read, write, search.
    const send = (spans: object[]) =>
      fetch(`${collector!.endpoint}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
      });
    expect((await send([tool('f'.repeat(16), 'search'), tool('0'.repeat(15) + '2', 'write')])).status).toBe(200);
    expect((await send([tool('0'.repeat(15) + '1', 'read')])).status).toBe(200);
    const spans = await collector.collect([root]);
    expect(spans.map((span) => span.attributes['agentcheck.external.arrival'])).toEqual([0, 1, 2]);
    const calls = (records: SpanRecord[]) => visibleCalls(buildEvidence({ spans: records })).map((call) => call.name);
    expect(calls([root, ...spans])).toEqual(['search', 'write', 'read']);
    // However the spans come to be listed (spans.jsonl read back, a store's order), the order holds.
    expect(calls([root, ...[...spans].reverse()])).toEqual(['search', 'write', 'read']);
  });

  it("records exports the receiver refused on the run's root span", async () => {
    collector = await startExternalSpanCollector();
    await fetch(`${collector.endpoint}/v1/traces`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    const runRoot = { ...root };
    expect(await collector.collect([runRoot])).toEqual([]);
    expect(runRoot.attributes['agentcheck.external.rejected']).toEqual([expect.stringMatching(/^415 unsupported content type "text\/plain"/)]);
  });
});
