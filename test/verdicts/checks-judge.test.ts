import { describe, expect, it } from 'vitest';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { RunBuilder } from './span-builder.js';
import { check, evidenceOf, invalid } from './check-helpers.js';

describe('judge check (pure: reads evidence.judgements)', () => {
  const base = evidenceOf([[{ name: 'create_refund', args: {} }]]);
  const judged = (answer: unknown) => ({ ...base, judgements: { 'judge#0': answer as never } });

  it('passes at the threshold, fails below it, default 0.7', () => {
    expect(check('judge', { rubric: 'r', threshold: 0.5 }, judged({ score: 0.5, passed: false, reason: 'ok' }))).toMatchObject({
      status: 'pass',
      reason: 'score 0.5 >= 0.5: ok',
    });
    expect(check('judge', { rubric: 'r' }, judged({ score: 0.69, passed: true, reason: 'meh' }))).toMatchObject({
      status: 'fail',
      reason: 'score 0.69 < 0.7: meh',
    });
  });

  it('says a grader gave no reason rather than end its reason in a bare colon', () => {
    expect(check('judge', { rubric: 'r' }, judged({ score: 0.9, passed: true, reason: '  ' }))).toMatchObject({
      status: 'pass',
      reason: 'score 0.9 >= 0.7 (the grader gave no reason)',
    });
  });

  it('is an error without an answer or with an unusable one', () => {
    expect(check('judge', { rubric: 'r' }, base)).toMatchObject({ status: 'error', reason: expect.stringMatching(/no grader answer/) });
    expect(check('judge', { rubric: 'r' }, judged({ error: 'bad JSON', error_type: 'grader_answer_invalid' }))).toMatchObject({
      status: 'error',
      reason: "the grader's answer could not be used: bad JSON",
    });
    // A call that failed brought no answer back: its reason says so alone.
    expect(check('judge', { rubric: 'r' }, judged({ error: 'the grader call failed: overloaded', error_type: 'grader_call_failed' }))).toMatchObject({
      status: 'error',
      reason: 'the grader call failed: overloaded',
    });
  });

  it('validates its params at load time', () => {
    expect(invalid('judge', { rubric: 'r', threshold: 0.7, include: ['output', 'transcript', 'tool_calls'], model: { provider: 'openai' } })).toBeNull();
    expect(invalid('judge', {})).toMatch(/rubric/);
    expect(invalid('judge', { rubric: 'r', threshold: 1.2 })).toMatch(/threshold/);
    expect(invalid('judge', { rubric: 'r', include: ['spans'] })).toMatch(/include/);
  });
});

describe('evidence ignores grading traces', () => {
  it('leaves turns, usage, calls and completeness as without them', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'create_refund', args: {} }]);
    run.text();
    const spans = run.spans();
    const grading: SpanRecord[] = [
      {
        trace_id: 'g1',
        span_id: 'e1',
        parent_id: null,
        name: 'evaluate judge#0',
        kind: 'internal',
        status: 'unset',
        start_ms: 1,
        end_ms: 2,
        duration_ms: 1,
        attributes: { 'gen_ai.operation.name': 'evaluate' },
        ended: true,
      },
      {
        trace_id: 'g1',
        span_id: 'c1',
        parent_id: 'e1',
        name: 'chat grader',
        kind: 'client',
        status: 'unset',
        start_ms: 1,
        end_ms: 2,
        duration_ms: 1,
        attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 500, 'gen_ai.usage.output_tokens': 50 },
        ended: true,
      },
      {
        trace_id: 'g1',
        span_id: 't1',
        parent_id: 'c1',
        name: 'execute_tool create_refund',
        kind: 'internal',
        status: 'unset',
        start_ms: 1,
        end_ms: 2,
        duration_ms: 1,
        attributes: { 'gen_ai.operation.name': 'execute_tool' },
        ended: true,
      },
    ];
    const plain = buildEvidence({ spans });
    const withGrading = buildEvidence({ spans: [...spans, ...grading] });
    expect(withGrading.incomplete).toBeNull();
    expect(withGrading.turns).toBe(plain.turns);
    expect(withGrading.usage).toEqual(plain.usage);
    expect(withGrading.calls.map((call) => call.span_id)).toEqual(plain.calls.map((call) => call.span_id));
    expect(withGrading.spans).toHaveLength(plain.spans.length);
  });
});
