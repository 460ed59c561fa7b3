import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { StopReason } from '../../src/engine/turn.js';
import { readSpansJsonl, spansToJsonl } from '../../src/spans/jsonl.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { scoreTestRun } from '../../src/verdicts/test-run-verdict.js';
import { tempDir } from '../helpers/temp-dir.js';
import { RunBuilder } from './span-builder.js';

/** A run that passes whole: lookup_order, then the terminal tool create_refund returns. */
function refundRun(traceId = 'trace-1', lookupResult: unknown = { ok: true }): SpanRecord[] {
  const run = new RunBuilder('Bot', traceId);
  run.modelCalls([{ name: 'lookup_order', result: lookupResult }]);
  run.modelCalls([{ name: 'create_refund' }]);
  run.text();
  // Span ids are random in a real run: two runs' files never share one.
  return run.spans().map((span) => ({ ...span, span_id: `${traceId}/${span.span_id}`, parent_id: span.parent_id && `${traceId}/${span.parent_id}` }));
}

const score = (spans: SpanRecord[], extra: { error?: { type: string; message: string }; stop_reason?: StopReason } = {}) =>
  scoreTestRun({ spans, stop_reason: extra.stop_reason ?? 'end_turn', terminal_tool: 'create_refund', error: extra.error });

describe('scoreTestRun on incomplete spans: never pass (docs/verdicts.md, The test_run verdict)', () => {
  it('scores the whole run pass', () => {
    expect(score(refundRun())).toMatchObject({ verdict: 'pass', incomplete: null });
  });

  it('no root span: unconfirmed, the reason says what is missing', () => {
    const result = score(refundRun().filter((span) => span.parent_id !== null));
    expect(result).toMatchObject({
      verdict: 'unconfirmed',
      verdict_reason: 'the spans are incomplete: no root span (every span has a parent)',
      incomplete: 'no root span (every span has a parent)',
    });
  });

  it('a terminal call that had not ended: unconfirmed, naming the span', () => {
    const spans = refundRun().map((span) => (span.name === 'execute_tool create_refund' ? { ...span, ended: false } : span));
    const open = spans.find((span) => !span.ended)!;
    expect(score(spans)).toMatchObject({
      verdict: 'unconfirmed',
      verdict_reason: `the spans are incomplete: span "execute_tool create_refund" (${open.span_id}) had not ended when the spans were collected`,
    });
  });

  it("a whole two-run spans.jsonl: unconfirmed, saying to keep one trace's records; filtered as the docs show, it passes", async () => {
    const file = join(tempDir(), 'spans.jsonl');
    await writeFile(file, spansToJsonl([...refundRun('trace-1'), ...refundRun('trace-2')]));
    const records = await readSpansJsonl(file);

    const whole = score(records);
    expect(whole.verdict).toBe('unconfirmed');
    expect(whole.verdict_reason).toBe(
      "the spans are incomplete: 2 root spans (invoke_agent Bot, invoke_agent Bot); expected one invoke; the records hold 2 traces (runs): score one run's, filtering them by trace_id first",
    );
    expect(whole.incomplete).toBe('2 root spans (invoke_agent Bot, invoke_agent Bot); expected one invoke');

    const run = records.filter((record) => record.trace_id === records[0].trace_id);
    expect(score(run)).toMatchObject({ verdict: 'pass', incomplete: null, trace_id: 'trace-1' });
    expect(score(run).tools).toEqual([
      { name: 'lookup_order', called: 1, returned: 1, errors: 0 },
      { name: 'create_refund', called: 1, returned: 1, errors: 0 },
    ]);
  });

  it('two roots of one trace: no trace_id advice, since filtering by it would not help', () => {
    const spans = refundRun();
    const result = score([...spans, { ...spans[0], span_id: 'other' }]);
    expect(result.verdict).toBe('unconfirmed');
    expect(result.verdict_reason).toBe('the spans are incomplete: 2 root spans (invoke_agent Bot, invoke_agent Bot); expected one invoke');
  });

  it("still fails on the run's own ending (an errored invoke, a time limit), not on a call failure read from the spans", () => {
    const unrooted = refundRun().filter((span) => span.parent_id !== null);
    expect(score(unrooted, { stop_reason: 'error', error: { type: 'SCRIPT_EXHAUSTED', message: 'script exhausted' } })).toMatchObject({
      verdict: 'failed',
      verdict_reason: 'the invoke errored (SCRIPT_EXHAUSTED: script exhausted)',
    });
    expect(score(unrooted, { stop_reason: 'error', error: { type: 'TIMEOUT', message: 'the run timed out' } }).verdict).toBe('failed');
    // Whole, this run fails on lookup_order's result; without its root nothing says it is this run's.
    const failedLookup = refundRun('trace-1', { ok: false });
    expect(score(failedLookup).verdict).toBe('failed');
    expect(score(failedLookup.filter((span) => span.parent_id !== null)).verdict).toBe('unconfirmed');
  });
});
