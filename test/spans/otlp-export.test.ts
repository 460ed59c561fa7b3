import { afterEach, describe, expect, it } from 'vitest';
import { startOtlpExport } from '../../src/spans/otlp-export.js';
import { testRun } from '../../src/runner/test-run.js';
import { attr, deadPort, startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';

const AGENT = {
  id: 'otlp-bot',
  agent: {
    name: 'OTLP bot',
    llm: { provider: 'scripted', model: 'otlp-model' },
    tools: [
      {
        name: 'lookup',
        description: 'Look up.',
        read_only: true,
        parameters: { type: 'object', properties: { id: { type: 'string' } } },
        returns: { status: 'ok' },
      },
      { name: 'finish', description: 'Finish.', parameters: { type: 'object' }, returns: { done: true } },
    ],
  },
};

function runOnce() {
  return testRun({
    agent: AGENT,
    inputs: { messages: [{ role: 'user', content: 'go' }] },
    expectations: { terminal_tool: 'finish' },
    script: [{ tool_calls: [{ name: 'lookup', args: { id: '7' } }] }, { tool_calls: [{ name: 'finish', args: {} }] }, { text: 'done' }],
  });
}

const SECRET = 's3cret-token';
let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('OTLP export', () => {
  it('exports the spans of docs/spans.md as OTLP/HTTP JSON with the configured headers', async () => {
    receiver = await startOtlpReceiver();
    const exporter = startOtlpExport(receiver.url, { OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET},x-team=qa` });
    expect(exporter?.endpoint).toBe(`${receiver.url}/v1/traces`);
    const result = await runOnce();
    expect(result.verdict).toBe('pass');
    expect(await exporter!.finish()).toBeNull();

    const request = receiver.received[0];
    expect(request.path).toBe('/v1/traces');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(request.headers['x-team']).toBe('qa');
    const resource = request.body.resourceSpans![0].resource?.attributes ?? [];
    expect(resource.find((a) => a.key === 'service.name')?.value).toEqual({ stringValue: 'agentcheck' });

    const spans = receiver.spans().filter((span) => span.traceId === result.trace_id);
    const root = spans.find((span) => span.name === 'invoke_agent OTLP bot');
    expect(root, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(root!.parentSpanId || undefined).toBeUndefined();
    expect(attr(root!, 'gen_ai.operation.name')).toBe('invoke_agent');
    const resolved = JSON.parse(attr(root!, 'agentcheck.resolved_config') as string);
    expect(resolved).toMatchObject({ provider: 'scripted', model: 'otlp-model', tools: [{ name: 'lookup' }, { name: 'finish' }] });

    const chats = spans.filter((span) => attr(span, 'gen_ai.operation.name') === 'chat');
    expect(chats).toHaveLength(3);
    expect(chats[0].name).toBe('chat otlp-model');
    expect(attr(chats[0], 'gen_ai.request.model')).toBe('otlp-model');

    const tools = spans.filter((span) => attr(span, 'gen_ai.operation.name') === 'execute_tool');
    expect(tools.map((span) => attr(span, 'gen_ai.tool.name'))).toEqual(['lookup', 'finish']);
    expect(JSON.parse(attr(tools[0], 'gen_ai.tool.call.arguments') as string)).toEqual({ id: '7' });
    expect(tools.every((span) => span.parentSpanId === root!.spanId)).toBe(true);
  });

  it('exports OTLP/HTTP protobuf when OTEL_EXPORTER_OTLP_PROTOCOL asks, with the service name and resource attributes of the environment', async () => {
    receiver = await startOtlpReceiver();
    const exporter = startOtlpExport(receiver.url, {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_SERVICE_NAME: 'support-bot-ci',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci,service.name=ignored,team=agent%20qa',
    });
    const result = await runOnce();
    expect(await exporter!.finish()).toBeNull();

    const request = receiver.received[0];
    expect(request.headers['content-type']).toBe('application/x-protobuf');
    const resource = Object.fromEntries((request.body.resourceSpans![0].resource?.attributes ?? []).map((a) => [a.key, a.value?.stringValue]));
    // OTEL_SERVICE_NAME wins over service.name in OTEL_RESOURCE_ATTRIBUTES, as the specification says.
    expect(resource).toMatchObject({
      'service.name': 'support-bot-ci',
      'deployment.environment.name': 'ci',
      team: 'agent qa',
      'service.version': expect.any(String),
    });

    const spans = receiver.spans().filter((span) => span.traceId === result.trace_id);
    const root = spans.find((span) => span.name === 'invoke_agent OTLP bot')!;
    expect(attr(root, 'gen_ai.operation.name')).toBe('invoke_agent');
    expect(attr(root, 'gen_ai.provider.name')).toBe('scripted');
    const chats = spans.filter((span) => attr(span, 'gen_ai.operation.name') === 'chat') as Array<{ kind?: number }>;
    expect(chats).toHaveLength(3);
    // SPAN_KIND_CLIENT is 3 in the OTLP enum.
    expect(chats.every((chat) => chat.kind === 3)).toBe(true);
    const tools = spans.filter((span) => attr(span, 'gen_ai.operation.name') === 'execute_tool');
    expect(JSON.parse(attr(tools[0], 'gen_ai.tool.call.arguments') as string)).toEqual({ id: '7' });
  });

  it('reports a dead endpoint once, without the headers, and keeps the run intact', async () => {
    const port = await deadPort();
    const exporter = startOtlpExport(`http://127.0.0.1:${port}/`, {
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '300',
    });
    const results = await Promise.all([runOnce(), runOnce()]);
    expect(results.map((r) => r.verdict)).toEqual(['pass', 'pass']);
    const warning = await exporter!.finish();
    expect(warning).toMatch(
      new RegExp(`^agentcheck: warning: OTLP export to http://127\\.0\\.0\\.1:${port}/v1/traces \\(from --otlp\\) failed: .*ECONNREFUSED`),
    );
    expect(warning).toMatch(/; \d+ of \d+ spans were not exported \(the suite result is unaffected\)$/);
    expect(warning).not.toContain(SECRET);
    expect(warning!.split('\n')).toHaveLength(1);
    // finish is idempotent: the same single line, no second report.
    expect(await exporter!.finish()).toBe(warning);
  });

  it('names the HTTP status a collector rejects with', async () => {
    receiver = await startOtlpReceiver(401);
    const exporter = startOtlpExport(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/custom/traces?token=${SECRET}` });
    await runOnce();
    const warning = await exporter!.finish();
    expect(receiver.received[0].path).toBe(`/custom/traces?token=${SECRET}`);
    expect(warning).toContain(`OTLP export to ${receiver.url}/custom/traces (from OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) failed: HTTP 401`);
    expect(warning).not.toContain(SECRET);
  });

  it.each(['http/json', 'http/protobuf'])('says how many spans a collector rejected in a partial success, and why (%s)', async (protocol) => {
    // The collector's reason quotes a header value and carries a line break and an ANSI sequence.
    const errorMessage = `2 spans had bad attributes\nsent with Bearer ${SECRET}\u001b[31m`;
    receiver = await startOtlpReceiver(200, { rejectedSpans: 2, errorMessage });
    const exporter = startOtlpExport(receiver.url, {
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${SECRET}`,
    });
    await runOnce();
    const warning = await exporter!.finish();
    const sent = receiver.spans().length;
    expect(sent).toBeGreaterThan(2);
    expect(warning).toBe(
      `agentcheck: warning: OTLP export to ${receiver.url}/v1/traces (from --otlp) failed: the collector rejected 2 span(s): ` +
        `"2 spans had bad attributes\\nsent with [redacted]\\u001b[31m"; 2 of ${sent} spans were not exported (the suite result is unaffected)`,
    );
  });

  it('prints nothing for a partial success that rejected no span', async () => {
    receiver = await startOtlpReceiver(200, { rejectedSpans: 0, errorMessage: 'a warning only' });
    const exporter = startOtlpExport(receiver.url, {});
    await runOnce();
    expect(await exporter!.finish()).toBeNull();
  });

  it('stays off without --otlp and OTEL_EXPORTER_OTLP_*', () => {
    expect(startOtlpExport(undefined, {})).toBeNull();
  });
});
