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
