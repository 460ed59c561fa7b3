import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { buildEvidence, visibleCalls } from '../../src/verdicts/evidence.js';
import { scoreTestRun } from '../../src/verdicts/index.js';
import { RunBuilder } from './span-builder.js';

describe('buildEvidence', () => {
  it('reads the root, resolved config, calls, approvals, turns, usage, stop reason and output', () => {
    const run = new RunBuilder('support-bot');
    run.modelCalls([{ name: 'lookup_order', args: { order_id: '1234' }, read_only: true, result: { id: '1234' } }]);
    run.approval('delete_order', 'deny');
    run.modelCalls([{ name: 'mcp__shop__delete_order', args: { id: 1 }, outcome: 'denied' }]);
    run.text();
    const evidence = buildEvidence({ spans: run.spans({ output: 'All done', resolved: { skills: ['a'], tools: [] } }) });

    expect(evidence.incomplete).toBeNull();
    expect(evidence.root?.name).toBe('invoke_agent support-bot');
    expect(evidence.trace_id).toBe('trace-1');
    expect(evidence.resolved).toEqual({ skills: ['a'], tools: [] });
    expect(evidence.turns).toBe(3);
    expect(evidence.usage).toEqual({ input_tokens: 30, output_tokens: 15 });
    expect(evidence.stop_reason).toBe('end_turn');
    expect(evidence.output).toBe('All done');
    expect(evidence.approvals).toEqual([expect.objectContaining({ tool: 'delete_order', decision: 'deny', call_id: 'call_2' })]);
    expect(
      evidence.calls.map(({ name, raw_name, outcome, is_error, error_type, read_only, kind, source, turn, nested, args, result }) => ({
        name,
        raw_name,
        outcome,
        is_error,
        error_type,
        read_only,
        kind,
        source,
        turn,
        nested,
        args,
        result,
      })),
    ).toEqual([
      {
        name: 'lookup_order',
        raw_name: 'lookup_order',
        outcome: 'ok',
        is_error: false,
        error_type: null,
        read_only: true,
        kind: 'returns',
        source: 'model',
        turn: 0,
        nested: false,
        args: { order_id: '1234' },
        result: { id: '1234' },
      },
      {
        name: 'delete_order',
        raw_name: 'mcp__shop__delete_order',
        outcome: 'denied',
        is_error: false,
        error_type: null,
        read_only: false,
        kind: 'returns',
        source: 'model',
        turn: 1,
        nested: false,
        args: { id: 1 },
        result: undefined,
      },
    ]);
  });

  it('an output argument wins over the root attribute; the transcript is the last resort', () => {
    const run = new RunBuilder();
    run.text();
    const spans = run.spans({ output: 'from span' });
    expect(buildEvidence({ spans, output: 'from runner' }).output).toBe('from runner');
    expect(buildEvidence({ spans }).output).toBe('from span');
    const root = { ...spans[0], attributes: { ...spans[0].attributes } };
    delete root.attributes['agentcheck.output'];
    const transcript = [
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'from transcript' },
    ];
    expect(buildEvidence({ spans: [root, ...spans.slice(1)], transcript }).output).toBe('from transcript');
  });

  it('marks plan and chain calls nested, keeps flow-step and agent-component calls visible', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'chain_tool', args: {} }]);
    const chainSpan = run.spans().find((span) => span.name === 'execute_tool chain_tool')!.span_id;
    const step = run.step('chain', chainSpan, 'send_email');
    run.tool('send_email', { to: 'a' }, { parent: step, source: 'chain', result: { ok: false } });
    const component = run.component('read_config', 'deterministic_step');
    run.tool('read_file', { path: 'a' }, { parent: component, source: 'flow', result: 'x' });
    const agent = run.component('fixer', 'agent');
    run.tool('edit_file', { path: 'a' }, { parent: agent, result: { ok: true }, turn: 1 });
    const evidence = buildEvidence({ spans: run.spans() });
    expect(evidence.calls.map((call) => [call.name, call.source, call.nested])).toEqual([
      ['chain_tool', 'model', false],
      ['send_email', 'chain', true],
      ['read_file', 'flow', false],
      ['edit_file', 'model', false],
    ]);
    expect(visibleCalls(evidence).map((call) => call.name)).toEqual(['chain_tool', 'read_file', 'edit_file']);
    expect(visibleCalls(evidence, true)).toHaveLength(4);
  });

  it('infers source and outcome from span structure when the agentcheck attributes are missing', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'plan_tool', args: {} }]);
    const parent = run.spans().find((span) => span.name === 'execute_tool plan_tool')!.span_id;
    const step = run.step('plan', parent, 'echo');
    const id = run.tool('echo', { text: 'x' }, { parent: step, source: 'plan', outcome: 'error', result: 'bad' });
    const spans = run.spans().map((span) => {
      if (span.span_id !== id) return span;
      const attributes = { ...span.attributes };
      delete attributes['agentcheck.tool.source'];
      delete attributes['agentcheck.tool.outcome'];
      delete attributes['agentcheck.tool.is_error'];
      return { ...span, attributes };
    });
    const call = buildEvidence({ spans }).calls[1];
    expect(call).toMatchObject({ source: 'plan', nested: true, outcome: 'error', is_error: true, error_type: 'tool_error' });
  });

  it("counts another tracer's tool span with no result and no error as returned, never as waiting for approval", () => {
    // An external agent's telemetry may leave results out (opt-in content); it has no approval gates.
    const run = new RunBuilder();
    const id = run.tool('finish', {}, { result: 'ignored' });
    run.text();
    const spans = run.spans().map((span) => {
      if (span.span_id !== id) return span;
      const attributes = { ...span.attributes };
      for (const key of ['agentcheck.tool.outcome', 'agentcheck.tool.is_error', 'gen_ai.tool.call.result']) delete attributes[key];
      return { ...span, status: 'unset' as const, attributes };
    });
    const evidence = buildEvidence({ spans });
    expect(evidence.calls[0]).toMatchObject({ name: 'finish', outcome: 'ok', is_error: false });
    expect(evidence.calls[0].result).toBeUndefined();
    expect(scoreTestRun({ spans, stop_reason: 'end_turn', terminal_tool: 'finish' })).toMatchObject({
      verdict: 'pass',
      tools: [{ name: 'finish', called: 1, returned: 1, errors: 0 }],
    });
  });

  it('sums chat usage when the root has no totals, parses the flow state', () => {
    const run = new RunBuilder();
    run.chat({ input: 7, output: 3 });
    run.chat({ input: 1, output: 1 });
    const evidence = buildEvidence({ spans: run.spans({ no_usage_totals: true, flow_state: { status: 'done', context: { a: { b: 1 } } } }) });
    expect(evidence.usage).toEqual({ input_tokens: 8, output_tokens: 4 });
    expect(evidence.flow_state).toEqual({ status: 'done', context: { a: { b: 1 } } });
  });

  describe('incomplete evidence', () => {
    const base = () => {
      const run = new RunBuilder();
      run.modelCalls([{ name: 'a' }]);
      return run.spans();
    };
    const reason = (spans: SpanRecord[]) => buildEvidence({ spans }).incomplete;

    it('is complete for a whole run', () => {
      expect(reason(base())).toBeNull();
    });
    it('no spans', () => {
      expect(reason([])).toBe('no spans were collected');
    });
    it('no root invoke_agent', () => {
      const spans = base()
        .slice(1)
        .map((span) => ({ ...span, parent_id: span.parent_id === '0000000000000001' ? null : span.parent_id }));
      expect(reason(spans.slice(0, 1))).toBe('the root span is "chat scripted", not invoke_agent');
    });
    it('more than one root', () => {
      const spans = base();
      expect(reason([...spans, { ...spans[0], span_id: 'other' }])).toBe('2 root spans (invoke_agent test-bot, invoke_agent test-bot); expected one invoke');
    });
    it('a span that had not ended', () => {
      const spans = base();
      spans[2] = { ...spans[2], ended: false };
      expect(reason(spans)).toBe(`span "execute_tool a" (${spans[2].span_id}) had not ended when the spans were collected`);
    });
    it('a span whose parent is missing', () => {
      const spans = base();
      spans[2] = { ...spans[2], parent_id: 'gone' };
      expect(reason(spans)).toBe(`span "execute_tool a" (${spans[2].span_id}) has parent gone, which is not among the spans`);
    });
  });
});

// Custom checks are pointed to docs/verdicts.md's Evidence table for what they receive (a check's
// own evidence must be call.span_id values): a field the object has but the table lacks cannot be found.
describe('docs/verdicts.md, Evidence', () => {
  it('lists every field of the evidence, of a call and of an approval', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/verdicts.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Evidence'), doc.indexOf('## The test_run verdict'));
    const rowOf = (field: string) => table.split('\n').find((line) => line.startsWith(`| \`${field}\``)) ?? '';
    const run = new RunBuilder('bot');
    run.approval('lookup_order', 'approve');
    run.modelCalls([{ name: 'lookup_order', args: { id: '1' }, result: { ok: true } }]);
    run.text();
    const evidence = buildEvidence({ spans: run.spans({ output: 'done' }) });
    expect(Object.keys(evidence).filter((key) => !table.includes(`\`${key}\``))).toEqual([]);
    expect(Object.keys(evidence.calls[0]!).filter((key) => !rowOf('calls').includes(`\`${key}\``))).toEqual([]);
    expect(Object.keys(evidence.approvals[0]!).filter((key) => !rowOf('approvals').includes(`\`${key}\``))).toEqual([]);
  });
});
