/**
 * Call order comes from `agentcheck.tool.seq`: the start times of one response's parallel calls,
 * and of a parent and its nested calls, tie or follow completion order.
 */
import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { buildEvidence, visibleCalls } from '../../src/verdicts/evidence.js';
import type { Evidence } from '../../src/verdicts/evidence-types.js';
import { scoreTestRun } from '../../src/verdicts/test-run-verdict.js';
import { check } from './check-helpers.js';
import { RunBuilder } from './span-builder.js';

/** The spans as a store would hold them: those named come in this order (e.g. end order), the rest stay put. */
function recorded(spans: SpanRecord[], ...names: string[]): SpanRecord[] {
  const picked = names.map((name) => spans.find((span) => span.name === name)!);
  const slots = picked.map((span) => spans.indexOf(span)).sort((a, b) => a - b);
  const out = [...spans];
  slots.forEach((slot, index) => (out[slot] = picked[index]));
  return out;
}

const names = (evidence: Evidence, nested = false) => visibleCalls(evidence, nested).map((call) => call.name);
const digest = (spans: SpanRecord[]) => scoreTestRun({ spans, stop_reason: 'end_turn' }).tools.map((row) => row.name);
const calls = (...tools: string[]) => tools.map((tool) => ({ tool }));

/** One response calls [http_tool (slow), b]; b's span ends, and is recorded, first. */
function parallelResponse(start: 'tie' | 'later call starts first'): SpanRecord[] {
  const run = new RunBuilder('test-bot', 'trace-1', { seq: true });
  const turn = run.chat({ finish: 'tool_calls' });
  const t = run.now();
  run.tool('http_tool', {}, { result: { ok: true }, kind: 'http', turn, start_ms: start === 'tie' ? t : t + 1 });
  run.tool('b', {}, { result: { ok: true }, turn, start_ms: t });
  run.text();
  return recorded(run.spans(), 'execute_tool b', 'execute_tool http_tool');
}

describe.each(['tie', 'later call starts first'] as const)('parallel calls of one response (start times: %s)', (start) => {
  const spans = parallelResponse(start);
  const evidence = buildEvidence({ spans });

  it('orders calls and the digest by seq', () => {
    expect(names(evidence)).toEqual(['http_tool', 'b']);
    expect(digest(spans)).toEqual(['http_tool', 'b']);
    expect(evidence.calls.map((call) => call.seq)).toEqual([1, 2]);
  });

  it('tool_order orders neither call of one response before the other', () => {
    expect(check('tool_order', { before: ['http_tool'], after: 'b' }, evidence)).toMatchObject({
      status: 'fail',
      reason: expect.stringContaining('http_tool was call 1, asked for in the same model response (turn 0): parallel calls are not ordered'),
    });
    expect(check('tool_order', { before: ['b'], after: 'http_tool' }, evidence).status).toBe('fail');
  });

  it('tool_sequence strict and in_order follow seq (and take one response in any order)', () => {
    expect(check('tool_sequence', { calls: calls('http_tool', 'b') }, evidence).reason).toBe('strict: the 2 calls matched in order; saw http_tool x1, b x1');
    expect(check('tool_sequence', { mode: 'in_order', calls: calls('http_tool', 'b') }, evidence).status).toBe('pass');
    expect(check('tool_sequence', { mode: 'in_order', calls: calls('b', 'http_tool') }, evidence).status).toBe('pass');
  });

  it('gives the same evidence whatever order the spans were collected in', () => {
    expect(names(buildEvidence({ spans: [...spans].reverse() }))).toEqual(['http_tool', 'b']);
  });
});

describe('a plan call and its nested calls with the same start time', () => {
  // One response: [plan_tool, b]; plan_tool's nested echo starts before b (seq 1, 2, 3), and
  // everything ends, and is recorded, innermost first.
  const run = new RunBuilder('test-bot', 'trace-1', { seq: true });
  const turn = run.chat({ finish: 'tool_calls' });
  const t = run.now();
  const plan = run.tool('plan_tool', {}, { result: { ok: true }, kind: 'plan', turn, start_ms: t });
  const step = run.step('plan', plan, 'echo', t);
  run.tool('echo', { text: 'x' }, { parent: step, source: 'plan', kind: 'builtin', result: 'x', start_ms: t });
  run.tool('b', {}, { result: { ok: true }, turn, start_ms: t });
  run.text();
  const spans = recorded(run.spans(), 'execute_tool echo', 'plan_step echo', 'execute_tool b', 'execute_tool plan_tool');
  const evidence = buildEvidence({ spans });

  it('puts the parent before its nested calls, and both before later calls of the response', () => {
    expect(names(evidence, true)).toEqual(['plan_tool', 'echo', 'b']);
    expect(names(evidence)).toEqual(['plan_tool', 'b']);
    expect(digest(spans)).toEqual(['plan_tool', 'b']);
  });

  it('nested tool_sequence and tool_order put the parent first', () => {
    expect(check('tool_sequence', { calls: calls('plan_tool', 'echo', 'b'), nested: true }, evidence).status).toBe('pass');
    expect(check('tool_sequence', { mode: 'in_order', calls: calls('plan_tool', 'echo'), nested: true }, evidence).status).toBe('pass');
    expect(check('tool_order', { before: ['plan_tool'], after: 'echo', nested: true }, evidence).status).toBe('pass');
    expect(check('tool_order', { before: ['echo'], after: 'b', nested: true }, evidence).status).toBe('pass');
  });

  it('a tool_called that only a plan made fails with a hint that nested: true counts it', () => {
    expect(check('tool_called', { tool: 'echo' }, evidence).reason).toBe(
      'expected echo to be called at least once; saw plan_tool x1, b x1; echo was called once inside a plan or chain (nested: true counts those calls)',
    );
    expect(check('tool_called', { tool: 'echo', nested: true }, evidence).status).toBe('pass');
  });
});

describe('spans without seq (older spans.jsonl)', () => {
  it('order calls by start time, not by the order they were recorded', () => {
    const run = new RunBuilder();
    const turn = run.chat({ finish: 'tool_calls' });
    const t = run.now();
    run.tool('a', {}, { result: 1, turn, start_ms: t + 1 });
    run.tool('b', {}, { result: 1, turn, start_ms: t });
    run.text();
    const evidence = buildEvidence({ spans: run.spans() });
    expect(names(evidence)).toEqual(['b', 'a']);
    expect(check('tool_sequence', { mode: 'in_order', calls: calls('b', 'a') }, evidence).status).toBe('pass');
  });

  it('break start-time ties by span id, so the collection order does not matter', () => {
    const run = new RunBuilder();
    const turn = run.chat({ finish: 'tool_calls' });
    const t = run.now();
    run.tool('a', {}, { result: 1, turn, start_ms: t });
    run.tool('b', {}, { result: 1, turn, start_ms: t });
    run.text();
    const spans = run.spans();
    expect(names(buildEvidence({ spans }))).toEqual(['a', 'b']);
    expect(names(buildEvidence({ spans: recorded(spans, 'execute_tool b', 'execute_tool a') }))).toEqual(['a', 'b']);
  });
});

describe('approvals against calls with the same start time', () => {
  it('no_side_effect_after_deny: a call made before the denied one in the same response did not run after the deny', () => {
    // One response: [archive_order (slow), delete_order (asks, denied)], all in the same millisecond.
    const run = new RunBuilder('test-bot', 'trace-1', { seq: true });
    const turn = run.chat({ finish: 'tool_calls' });
    const t = run.now();
    run.tool('archive_order', {}, { result: { ok: true }, turn, start_ms: t });
    run.approval('delete_order', 'deny', 'call_2', t);
    run.tool('delete_order', {}, { outcome: 'denied', turn, start_ms: t });
    run.text();
    const spans = recorded(run.spans(), 'approval delete_order', 'execute_tool delete_order', 'execute_tool archive_order');
    const evidence = buildEvidence({ spans });
    expect(check('no_side_effect_after_deny', {}, evidence)).toMatchObject({
      status: 'pass',
      reason: 'after delete_order was denied, no side-effecting tool ran (0 later calls)',
    });
    expect(evidence.approvals).toEqual([expect.objectContaining({ tool: 'delete_order', decision: 'deny', seq: 2 })]);
  });

  it('no_side_effect_after_deny: a call of the same response is not a later call, in either order; one of a later response is', () => {
    // The model asked for both at once and they run concurrently: neither reacts to the denial.
    for (const denyFirst of [true, false]) {
      const run = new RunBuilder('test-bot', 'trace-1', { seq: true });
      const turn = run.chat({ finish: 'tool_calls' });
      const t = run.now();
      if (!denyFirst) run.tool('archive_order', {}, { result: { ok: true }, turn, start_ms: t, call_id: 'call_2' });
      run.approval('delete_order', 'deny', 'call_1', t);
      run.tool('delete_order', {}, { outcome: 'denied', turn, start_ms: t, call_id: 'call_1' });
      if (denyFirst) run.tool('archive_order', {}, { result: { ok: true }, turn, start_ms: t, call_id: 'call_2' });
      const later = run.chat({ finish: 'tool_calls' });
      run.tool('write_file', {}, { result: { ok: true }, turn: later, call_id: 'call_3' });
      run.text();
      expect(check('no_side_effect_after_deny', {}, buildEvidence({ spans: run.spans() })).reason, `deny first: ${denyFirst}`).toBe(
        'expected no side-effecting tool to run after delete_order was denied; write_file (not read-only) ran with outcome ok',
      );
    }
  });

  it('no_side_effect_after_deny: another composite of the same response runs under its own call, not after the deny', () => {
    // A plan (its nested write denied) and a chain (its nested write runs), asked for in one response.
    for (const planFirst of [true, false]) {
      const run = new RunBuilder('test-bot', 'trace-1', { seq: true });
      const turn = run.chat({ finish: 'tool_calls' });
      const t = run.now();
      const plan = () => {
        const outer = run.tool('tidy_plan', {}, { result: { ok: true }, turn, start_ms: t, call_id: 'call_p' });
        const step = run.step('plan', outer, 'write_file', t);
        run.approval('write_file', 'deny', 'n1', t);
        run.tool('write_file', {}, { outcome: 'denied', parent: step, source: 'plan', start_ms: t, call_id: 'n1' });
      };
      const chain = () => {
        const outer = run.tool('sync_chain', {}, { result: { ok: true }, turn, start_ms: t, call_id: 'call_c' });
        const step = run.step('chain', outer, 'write_file', t);
        run.tool('write_file', {}, { result: { ok: true }, parent: step, source: 'chain', start_ms: t, call_id: 'n2' });
      };
      if (planFirst) {
        plan();
        chain();
      } else {
        chain();
        plan();
      }
      run.text();
      const outcome = check('no_side_effect_after_deny', {}, buildEvidence({ spans: run.spans() }));
      expect(outcome.status, `plan first: ${planFirst}`).toBe('pass');
    }
  });

  it('no_side_effect_after_deny ends on spans whose parents form a cycle (an external agent sent them)', () => {
    const run = new RunBuilder('test-bot', 'trace-1', { seq: true });
    const turn = run.chat({ finish: 'tool_calls' });
    run.approval('delete_order', 'deny', 'call_1');
    const denied = run.tool('delete_order', {}, { outcome: 'denied', turn, call_id: 'call_1' });
    const a = run.tool('a', {}, { result: { ok: true }, turn: turn + 1, call_id: 'call_2' });
    const b = run.tool('b', {}, { result: { ok: true }, turn: turn + 1, call_id: 'call_3' });
    run.text();
    const spans = run.spans().map((span) => (span.span_id === a ? { ...span, parent_id: b } : span.span_id === b ? { ...span, parent_id: a } : span));
    expect(spans.some((span) => span.span_id === denied)).toBe(true);
    expect(check('no_side_effect_after_deny', {}, buildEvidence({ spans })).status).toBe('fail');
  });

  it('approvals follow the calls they gated; a repeated call id links to the later call', () => {
    const run = new RunBuilder('test-bot', 'trace-1', { seq: true });
    run.modelCalls([{ name: 'lookup', call_id: 'c1', read_only: true }]);
    const turn = run.chat({ finish: 'tool_calls' });
    const t = run.now();
    run.approval('refund', 'approve', 'c1', t);
    run.tool('refund', {}, { result: { ok: true }, call_id: 'c1', turn, start_ms: t });
    run.approval('email', 'deny', 'c2', t);
    run.tool('email', {}, { outcome: 'denied', call_id: 'c2', turn, start_ms: t });
    run.text();
    const spans = recorded(run.spans(), 'approval email', 'execute_tool email', 'approval refund', 'execute_tool refund');
    const evidence = buildEvidence({ spans });
    expect(scoreTestRun({ spans, stop_reason: 'end_turn', evidence }).approvals).toEqual([
      { tool: 'refund', decision: 'approve' },
      { tool: 'email', decision: 'deny' },
    ]);
    expect(evidence.approvals.map((item) => item.seq)).toEqual([2, 3]);
  });
});
