import { afterEach, describe, expect, it } from 'vitest';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { sendJson, startLocalServer, type LocalServer } from '../../helpers/openai-server.js';

let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKEN = 'platform-t0ken';

/** An OTLP JSON export with one OpenInference TOOL span, in another trace than the run's. */
function traceExport(traceId: string) {
  const attributes = [
    { key: 'openinference.span.kind', value: { stringValue: 'TOOL' } },
    { key: 'tool.name', value: { stringValue: 'get_weather' } },
    { key: 'tool_call.id', value: { stringValue: 'call_w' } },
    { key: 'input.value', value: { stringValue: '{"city":"Paris"}' } },
    { key: 'output.value', value: { stringValue: '{"temp":18}' } },
  ];
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId,
                spanId: 'c'.repeat(16),
                name: 'get_weather',
                startTimeUnixNano: '1700000000000000000',
                endTimeUnixNano: '1700000000500000000',
                attributes,
              },
            ],
          },
        ],
      },
    ],
  };
}

/** One run of an http agent at `server`'s /invoke whose spans are read from its /traces/{trace_id}. */
async function runWithSpansUrl(local: LocalServer) {
  const record = await executeTestRun({
    agent: { id: 'platform-agent', external: { http: { url: `${local.origin}/invoke`, spans_url: `${local.origin}/traces/{trace_id}` } } },
    inputs: { messages: [{ role: 'user', content: 'go' }] },
    env: { PATH: process.env.PATH },
    timeout_ms: 120_000,
  });
  await record.workspace.dispose();
  return record;
}

describe("an http engine's spans URL in a run", () => {
  it('is read after the turn with the trace id the engine answered and its headers; its tool calls become evidence', async () => {
    const remoteTrace = 'e'.repeat(32);
    server = await startLocalServer({
      invoke: (_request, res) => sendJson(res, 200, { output: 'It is 18 degrees in Paris.', trace_id: remoteTrace }),
      traces: (request, res) => (request.url === `/traces/${remoteTrace}` ? sendJson(res, 200, traceExport(remoteTrace)) : sendJson(res, 404, {})),
    });
    const record = await executeTestRun({
      agent: {
        id: 'platform-agent',
        external: {
          http: {
            url: `${server.origin}/invoke`,
            headers: { authorization: `Bearer {{ env.PLATFORM_TOKEN }}` },
            spans_url: `${server.origin}/traces/{trace_id}`,
          },
        },
      },
      inputs: { messages: [{ role: 'user', content: 'Weather in Paris?' }] },
      expectations: { terminal_tool: 'get_weather' },
      env: { PATH: process.env.PATH, PLATFORM_TOKEN: TOKEN },
      timeout_ms: 120_000,
    });
    await record.workspace.dispose();
    expect(server.of('traces')[0]).toMatchObject({ method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(record.evidence.incomplete).toBeNull();
    expect(record.evidence.calls.map((call) => [call.name, call.call_id, call.args, call.result])).toEqual([
      ['get_weather', 'call_w', { city: 'Paris' }, { temp: 18 }],
    ]);
    const tool = record.spans.find((span) => span.name === 'execute_tool get_weather')!;
    expect(tool.trace_id).toBe(record.result.trace_id);
    expect(record.result.verdict).toBe('pass');
  }, 120_000);

  it('that fails errors the run naming the URL, and keeps what the run did: its output, transcript and spans', async () => {
    server = await startLocalServer({
      invoke: (_request, res) => sendJson(res, 200, { output: 'done', trace_id: 'abc' }),
      traces: (_request, res) => sendJson(res, 404, {}),
    });
    const record = await runWithSpansUrl(server);
    expect(record.result.stop_reason).toBe('error');
    expect(record.result.verdict).toBe('failed');
    expect(record.result.verdict_reason).toMatch(/SPANS_URL_FAILED: reading spans from .*\/traces\/abc failed: HTTP 404/);
    expect(record.result.output).toBe('done');
    expect(record.turn.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const root = record.spans.find((span) => span.parent_id === null)!;
    expect(root).toMatchObject({ status: 'error', attributes: expect.objectContaining({ 'error.type': 'SPANS_URL_FAILED' }) });
  }, 120_000);

  it("of an agent that did not answer leaves the agent's own error, which says why", async () => {
    server = await startLocalServer({
      invoke: (_request, res) => sendJson(res, 503, { error: 'down for maintenance' }),
      traces: (_request, res) => sendJson(res, 404, {}),
    });
    const record = await runWithSpansUrl(server);
    // Before, the row said SPANS_URL_FAILED: "the agent's answer had no trace_id".
    expect(record.turn.error?.type).toBe('EXTERNAL_AGENT_FAILED');
    expect(record.result.verdict_reason).not.toContain('SPANS_URL_FAILED');
  }, 120_000);

  it('with a header whose {{ env.NAME }} is unset errors the turn naming it (TEMPLATE_UNDEFINED), as without a spans URL', async () => {
    server = await startLocalServer({
      invoke: (_request, res) => sendJson(res, 200, { output: 'done', trace_id: 'abc' }),
      traces: (_request, res) => sendJson(res, 404, {}),
    });
    // Before, the run threw a RunError before it started: no result, no spans.
    const record = await executeTestRun({
      agent: {
        id: 'platform-agent',
        external: {
          http: { url: `${server.origin}/invoke`, headers: { Authorization: 'Bearer {{ env.SVC_TOKEN }}' }, spans_url: `${server.origin}/traces/{trace_id}` },
        },
      },
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      env: { PATH: process.env.PATH },
      timeout_ms: 120_000,
    });
    await record.workspace.dispose();
    expect(record.turn.error).toMatchObject({
      type: 'TEMPLATE_UNDEFINED',
      message: expect.stringContaining('external.http.headers.Authorization needs the environment variable SVC_TOKEN'),
    });
    expect(record.result.verdict).toBe('failed');
    expect(record.result.verdict_reason).not.toContain('SPANS_URL_FAILED');
    expect(record.result.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(server.of('invoke')).toHaveLength(0);
    expect(server.of('traces')).toHaveLength(0);
  }, 120_000);
});
