import { describe, expect, it } from 'vitest';
import { mergeSegments } from '../../../src/runner/resume/merge-segments.js';
import { ATTR, EVIDENCE_ATTR } from '../../../src/spans/conventions.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { orderSpans } from '../../../src/verdicts/span-order.js';
import { spanRecord } from '../../helpers/span-record.js';

let clock = 1_000;

function span(trace: string, id: string, parent: string | null, name: string, attributes: SpanRecord['attributes'] = {}): SpanRecord {
  clock += 1;
  return spanRecord(trace, id, parent, name, clock, 1, attributes);
}

function call(trace: string, id: string, parent: string, tool: string, callId: string, seq: number, outcome = 'ok'): SpanRecord {
  return span(trace, id, parent, `execute_tool ${tool}`, {
    [ATTR.toolName]: tool,
    [ATTR.toolCallId]: callId,
    [ATTR.toolSeq]: seq,
    [EVIDENCE_ATTR.toolOutcome]: outcome,
  });
}

/** The joined run's calls in evidence order, as `tool:call id`. */
function callOrder(spans: SpanRecord[]): string[] {
  return orderSpans(spans)
    .spans.filter((s) => s.name.startsWith('execute_tool'))
    .map((s) => `${String(s.attributes[ATTR.toolName])}:${String(s.attributes[ATTR.toolCallId])}`);
}

describe('mergeSegments: call order across a pause', () => {
  it('gives a call answered on resume the place it had in its response', () => {
    // Segment 1: write (gated, left waiting, seq 1) and read (ran, seq 2). Segment 2 answers the write (seq 3).
    const first = [
      span('t1', 'r1', null, 'invoke_agent bot'),
      call('t1', 'w1', 'r1', 'write_file', 'call_1', 1, 'pending'),
      call('t1', 'x1', 'r1', 'read_file', 'call_2', 2),
    ];
    const second = [
      span('t2', 'r2', null, 'invoke_agent bot'),
      call('t2', 'w2', 'r2', 'write_file', 'call_1', 3),
      call('t2', 'z2', 'r2', 'finish', 'call_3', 4),
    ];
    expect(callOrder(mergeSegments([first, second]))).toEqual(['write_file:call_1', 'read_file:call_2', 'finish:call_3']);
  });

  it('keeps segments in order when the resume ran in another process, which numbers its calls from 1 again', () => {
    const first = [
      span('t1', 'r1', null, 'invoke_agent bot'),
      call('t1', 'a1', 'r1', 'lookup', 'call_1', 7),
      call('t1', 'w1', 'r1', 'write_file', 'call_2', 8, 'pending'),
    ];
    const second = [
      span('t2', 'r2', null, 'invoke_agent bot'),
      call('t2', 'w2', 'r2', 'write_file', 'call_2', 1),
      call('t2', 'b2', 'r2', 'notify', 'call_3', 2),
    ];
    const merged = mergeSegments([first, second]);
    expect(callOrder(merged)).toEqual(['lookup:call_1', 'write_file:call_2', 'notify:call_3']);
    // The first segment keeps its numbers; the answered call takes the waiting one's.
    const seqOf = (id: string) => merged.find((s) => s.span_id === id)?.attributes[ATTR.toolSeq];
    expect([seqOf('a1'), seqOf('w2')]).toEqual([7, 8]);
    expect(seqOf('b2')).toBeGreaterThan(8);
    expect(merged.some((s) => s.span_id === 'w1')).toBe(false);
  });

  it('keeps a waiting call no later segment records (a resume that ran nothing): the run still waits there', () => {
    const first = [
      span('t1', 'r1', null, 'invoke_agent bot'),
      call('t1', 'a1', 'r1', 'lookup', 'call_1', 1),
      span('t1', 'p1', 'r1', 'approval write_file', {
        [ATTR.operationName]: 'approval',
        [ATTR.toolName]: 'write_file',
        [ATTR.toolCallId]: 'call_2',
        [ATTR.approvalDecision]: 'pending',
      }),
      call('t1', 'w1', 'r1', 'write_file', 'call_2', 2, 'pending'),
    ];
    // The resume ended with an error before its first model or tool call: only its root.
    const second = [span('t2', 'r2', null, 'invoke_agent bot')];
    const merged = mergeSegments([first, second]);
    expect(callOrder(merged)).toEqual(['lookup:call_1', 'write_file:call_2']);
    expect(merged.find((s) => s.span_id === 'p1')?.attributes[ATTR.approvalDecision]).toBe('pending');
    expect(merged.find((s) => s.span_id === 'w1')?.attributes[ATTR.toolSeq]).toBe(2);
  });
});

describe('mergeSegments: one timeline across segments recorded on clocks of their own', () => {
  /** A segment's root, a model turn in it, and a tool call after the turn (with an event). */
  function segment(trace: string, start: number, turn: number): SpanRecord[] {
    const chat = spanRecord(trace, `c${turn}`, `r${turn}`, 'chat m', start + 0.1, 0.2, { [ATTR.turn]: turn });
    const tool = { ...spanRecord(trace, `x${turn}`, `r${turn}`, 'execute_tool t', start + 0.3, 0.1), events: [{ name: 'e', time_ms: start + 0.35 }] };
    return [spanRecord(trace, `r${turn}`, null, 'invoke_agent bot', start, 0.5), chat, tool];
  }

  it('starts each segment no earlier than the one before it ended, so the root spans the whole run', () => {
    // The resume's root read the wall clock to the whole millisecond: 0.3 ms before the pause ended.
    // The third segment ran after the wall clock was set back by a second.
    const merged = mergeSegments([segment('t1', 1000.0, 1), segment('t2', 1000.2, 2), segment('t3', 0.7, 3)]);
    const byId = new Map(merged.map((span) => [span.span_id, span]));
    const at = (id: string) => [byId.get(id)?.start_ms, byId.get(id)?.end_ms].map((ms) => Math.round((ms as number) * 1000) / 1000);
    expect(at('r1')).toEqual([1000, 1001.5]);
    // Each later segment moved as a whole, its durations its own: right after the segment before.
    expect(at('c2')).toEqual([1000.6, 1000.8]);
    expect(at('x2')).toEqual([1000.8, 1000.9]);
    expect(at('c3')).toEqual([1001.1, 1001.3]);
    expect(byId.get('x3')?.events?.[0].time_ms).toBeCloseTo(1001.35, 9);
    const root = merged[0];
    for (const span of merged) {
      expect(span.start_ms, span.span_id).toBeGreaterThanOrEqual(root.start_ms);
      expect(span.end_ms, span.span_id).toBeLessThanOrEqual(root.end_ms);
      expect(span.duration_ms, span.span_id).toBeCloseTo(span.end_ms - span.start_ms, 9);
    }
    const chats = merged.filter((span) => span.name.startsWith('chat'));
    expect(chats.map((span) => span.attributes[ATTR.turn])).toEqual([1, 2, 3]);
    for (let i = 1; i < chats.length; i++) expect(chats[i].start_ms).toBeGreaterThanOrEqual(chats[i - 1].end_ms);
    expect(root.duration_ms).toBeCloseTo(root.end_ms - root.start_ms, 9);
  });

  it('leaves a segment that started after the one before it ended where it was', () => {
    const merged = mergeSegments([segment('t1', 1000, 1), segment('t2', 2000, 2)]);
    expect(merged.find((span) => span.span_id === 'c2')?.start_ms).toBe(2000.1);
    expect(merged[0].end_ms).toBe(2000.5);
  });
});
