import { describe, expect, it } from 'vitest';
import { joinExternalSpans } from '../../../src/runner/external-spans/join-external-spans.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { buildEvidence } from '../../../src/verdicts/index.js';

const RUN_TRACE = '1'.repeat(32);
const AGENT_TRACE = '2'.repeat(32);

const span = (id: string, name: string, parent: string | null, attributes: SpanRecord['attributes'] = {}, extra: Partial<SpanRecord> = {}): SpanRecord => ({
  trace_id: RUN_TRACE,
  span_id: id.padStart(16, '0'),
  parent_id: parent === null ? null : parent.padStart(16, '0'),
  name,
  kind: 'internal',
  status: 'unset',
  start_ms: Number.parseInt(id, 16),
  end_ms: 100,
  duration_ms: 1,
  attributes,
  ended: true,
  ...extra,
});

const root = span('a1', 'invoke_agent bot', null, { 'gen_ai.operation.name': 'invoke_agent' });
const bridgeChat = span('a2', 'chat scripted', 'a1', { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 10 });
const bridgeCall = span('a3', 'execute_tool read_file', 'a1', {
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': 'read_file',
  'gen_ai.tool.call.id': 'call_1',
  'gen_ai.tool.call.result': '"x"',
});

/** The AI SDK's shape: a step span with a model call and a tool call under it. */
function agentSpans(traceId: string, rootParent: string | null): SpanRecord[] {
  const other = { trace_id: traceId };
  return [
    span('b1', 'ai.generateText', rootParent, { 'ai.operationId': 'ai.generateText' }, other),
    span(
      'b2',
      'ai.generateText.doGenerate',
      'b1',
      { 'ai.operationId': 'ai.generateText.doGenerate', 'ai.model.id': 'm', 'gen_ai.usage.input_tokens': 10 },
      other,
    ),
    span(
      'b3',
      'ai.toolCall',
      'b2',
      { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'read_file', 'ai.toolCall.id': 'call_1', 'ai.toolCall.args': '{}' },
      other,
    ),
    span(
      'b4',
      'ai.toolCall',
      'b1',
      { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'list_files', 'ai.toolCall.id': 'call_2', 'ai.toolCall.args': '{}' },
      other,
    ),
  ];
}

describe("joining an external agent's spans to the run", () => {
  it('counts a call the bridge recorded once (by call id) and the model calls once, re-hanging children', () => {
    const joined = joinExternalSpans(agentSpans(RUN_TRACE, root.span_id), [root, bridgeChat, bridgeCall]);
    expect(joined.duplicateCalls).toBe(1);
    expect(joined.duplicateChats).toBe(1);
    expect(joined.spans.map((s) => s.name)).toEqual(['ai.generateText', 'execute_tool list_files']);
    const evidence = buildEvidence({ spans: [root, bridgeChat, bridgeCall, ...joined.spans] });
    expect(evidence.incomplete).toBeNull();
    expect(evidence.calls.map((call) => [call.name, call.call_id, call.nested])).toEqual([
      ['read_file', 'call_1', false],
      ['list_files', 'call_2', false],
    ]);
    expect(evidence.turns).toBe(1);
  });

  it("marks the bridge's span of a call failed when the agent's own span of it is an error", () => {
    const call = { ...bridgeCall, attributes: { ...bridgeCall.attributes } };
    const spans = agentSpans(RUN_TRACE, root.span_id);
    spans[2] = {
      ...spans[2],
      status: 'error',
      status_message: 'ENOENT: missing.md',
      events: [{ name: 'exception', time_ms: 5, attributes: { 'exception.type': 'Error' } }],
    };
    const joined = joinExternalSpans(spans, [root, bridgeChat, call]);
    expect(joined.duplicateCalls).toBe(1);
    expect(call).toMatchObject({
      status: 'error',
      status_message: 'ENOENT: missing.md',
      attributes: { 'error.type': 'Error', 'agentcheck.tool.is_error': true },
    });
    const evidence = buildEvidence({ spans: [root, bridgeChat, call, ...joined.spans] });
    expect(evidence.calls.find((c) => c.call_id === 'call_1')).toMatchObject({ is_error: true, error_type: 'Error' });
  });

  it("puts spans of an agent that ignored TRACEPARENT into the run's trace, under its root", () => {
    const joined = joinExternalSpans(agentSpans(AGENT_TRACE, null), [root]);
    expect(joined.spans.every((s) => s.trace_id === RUN_TRACE)).toBe(true);
    expect(joined.spans.find((s) => s.name === 'ai.generateText')!.parent_id).toBe(root.span_id);
    const evidence = buildEvidence({ spans: [root, ...joined.spans] });
    expect(evidence.incomplete).toBeNull();
    // Without the bridge, the agent's own model call is the run's turn.
    expect(evidence.turns).toBe(1);
    expect(evidence.calls.map((call) => call.name)).toEqual(['read_file', 'list_files']);
  });

  it('hangs a span whose parent is unknown under the root, and breaks a parent loop', () => {
    const loopA = span('c1', 'step', 'c2', {}, { trace_id: AGENT_TRACE });
    const loopB = span('c2', 'step', 'c1', {}, { trace_id: AGENT_TRACE });
    const stray = span('c3', 'stray', 'ffff', {}, { trace_id: AGENT_TRACE });
    const joined = joinExternalSpans([loopA, loopB, stray], [root]);
    expect(joined.spans.find((s) => s.name === 'stray')!.parent_id).toBe(root.span_id);
    const evidence = buildEvidence({ spans: [root, ...joined.spans] });
    expect(evidence.incomplete).toBeNull();
  });

  it('leaves out a received span that reuses a span id of the run', () => {
    const clash = span('a2', 'not the chat', 'a1', {}, { trace_id: AGENT_TRACE });
    expect(joinExternalSpans([clash], [root, bridgeChat]).spans).toEqual([]);
  });
});
