import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mapExternalSpan } from '../../src/spans/external-span-mapping.js';
import { decodeTraceRequest } from '../../src/spans/otlp-decode.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { buildEvidence } from '../../src/verdicts/index.js';

/** The spans of a real run of scenarios/external/ai-sdk/agent.mjs (fixtures/otlp/README.md). */
function capturedAiSdkSpans(): SpanRecord[] {
  const body = JSON.parse(readFileSync(new URL('../../fixtures/otlp/ai-sdk-workspace-agent.otlp.json', import.meta.url), 'utf8'));
  return decodeTraceRequest(body).map((span) => span.record);
}

const span = (name: string, attributes: SpanRecord['attributes'], extra: Partial<SpanRecord> = {}): SpanRecord => ({
  trace_id: 'a'.repeat(32),
  span_id: 'b'.repeat(16),
  parent_id: null,
  name,
  kind: 'internal',
  status: 'unset',
  start_ms: 1,
  end_ms: 2,
  duration_ms: 1,
  attributes,
  ended: true,
  ...extra,
});

describe('mapping external spans', () => {
  it('keeps an attribute named __proto__ of an exported span as an attribute', () => {
    const attribute = (key: string, value: unknown) => ({ key, value });
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: 'a'.repeat(32),
                  spanId: 'b'.repeat(16),
                  name: 'step',
                  startTimeUnixNano: '1700000000000000000',
                  endTimeUnixNano: '1700000000500000000',
                  attributes: [attribute('__proto__', { arrayValue: { values: [{ stringValue: 'x' }] } }), attribute('constructor', { stringValue: 'c' })],
                },
              ],
            },
          ],
        },
      ],
    };
    const [record] = decodeTraceRequest(body).map((decoded) => decoded.record);
    expect(Object.getPrototypeOf(record.attributes)).toBe(Object.prototype);
    expect(JSON.stringify(record.attributes)).toBe('{"__proto__":["x"],"constructor":"c"}');
    expect(JSON.stringify(mapExternalSpan(record).attributes)).toContain('"__proto__":["x"],"constructor":"c"');
  });

  it('maps the AI SDK ai.toolCall spans of a real run to execute_tool spans, a thrown tool as an error', () => {
    const mapped = capturedAiSdkSpans().map(mapExternalSpan);
    const tools = mapped.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
    expect(tools.map((s) => s.name)).toEqual(['execute_tool read_file', 'execute_tool read_file']);
    expect(tools[0].attributes).toMatchObject({
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.call.id': 'call_read_1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.arguments': '{"path":"notes.md"}',
      'agentcheck.external.exported': true,
      'agentcheck.external.name': 'ai.toolCall',
      'ai.toolCall.id': 'call_read_1',
    });
    expect(JSON.parse(String(tools[0].attributes['gen_ai.tool.call.result']))).toMatchObject({ path: 'notes.md', content: expect.stringContaining('1.4.0') });
    expect(tools[1]).toMatchObject({
      status: 'error',
      status_message: expect.stringContaining('ENOENT'),
      attributes: { 'gen_ai.tool.call.id': 'call_read_2', 'error.type': 'Error' },
    });
    expect(tools[1].attributes['gen_ai.tool.call.result']).toBeUndefined();
  });

  it('maps the AI SDK model calls (doGenerate) to chat spans with usage, and leaves the step span as it is', () => {
    const mapped = capturedAiSdkSpans().map(mapExternalSpan);
    const chats = mapped.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats.map((s) => s.name)).toEqual(['chat scripted-model', 'chat scripted-model', 'chat scripted-model']);
    expect(chats.map((s) => s.attributes['gen_ai.usage.input_tokens'])).toEqual([10, 20, 30]);
    expect(chats[0].attributes).toMatchObject({
      'gen_ai.provider.name': 'openai.chat',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.response.model': 'scripted-model',
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.finish_reasons': ['tool-calls'],
      'gen_ai.usage.output_tokens': 5,
    });
    const step = mapped.find((s) => s.name === 'ai.generateText')!;
    expect(step.attributes['gen_ai.operation.name']).toBeUndefined();
    expect(step.attributes['agentcheck.external.exported']).toBe(true);
  });

  it('makes the calls evidence: not nested under the AI SDK step span, the failed one an error', () => {
    const received = capturedAiSdkSpans().map(mapExternalSpan);
    const step = received.find((s) => s.name === 'ai.generateText')!;
    // The run's root is the TRACEPARENT span the agent was given.
    const root = span('invoke_agent ai-sdk', { 'gen_ai.operation.name': 'invoke_agent' }, { trace_id: step.trace_id, span_id: step.parent_id! });
    const evidence = buildEvidence({ spans: [root, ...received] });
    expect(evidence.incomplete).toBeNull();
    expect(evidence.calls.map((call) => [call.name, call.call_id, call.nested, call.is_error])).toEqual([
      ['read_file', 'call_read_1', false, false],
      ['read_file', 'call_read_2', false, true],
    ]);
    expect(evidence.turns).toBe(3);
  });

  it('maps an OpenInference TOOL span: tool.name, input.value, output.value and tool_call.id', () => {
    const mapped = mapExternalSpan(
      span('get_weather', {
        'openinference.span.kind': 'TOOL',
        'tool.name': 'get_weather',
        'input.value': '{"city":"Paris"}',
        'output.value': '{"temp":18}',
        'tool_call.id': 'call_w1',
      }),
    );
    expect(mapped.name).toBe('execute_tool get_weather');
    expect(mapped.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_w1',
      'gen_ai.tool.call.arguments': '{"city":"Paris"}',
      'gen_ai.tool.call.result': '{"temp":18}',
      'agentcheck.external.name': 'get_weather',
    });
    const failed = mapExternalSpan(span('lookup', { 'openinference.span.kind': 'TOOL', 'input.value': '{}' }, { status: 'error', status_message: 'timeout' }));
    expect(failed).toMatchObject({
      name: 'execute_tool lookup',
      status: 'error',
      status_message: 'timeout',
      attributes: { 'gen_ai.tool.name': 'lookup', 'error.type': 'error' },
    });
    expect(failed.attributes['gen_ai.tool.call.id']).toBeUndefined();
  });

  it('keeps GenAI-convention spans as they are, only marked external', () => {
    const own = span('execute_tool search', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.call.id': 'c1' });
    expect(mapExternalSpan(own)).toEqual({ ...own, attributes: { ...own.attributes, 'agentcheck.external.exported': true } });
  });
});
