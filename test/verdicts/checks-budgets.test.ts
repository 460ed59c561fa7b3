import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { check, evidenceOf, invalid } from './check-helpers.js';
import { RunBuilder } from './span-builder.js';

// Three model calls (two with tool calls, one text), 10 input + 5 output tokens each.
const evidence = evidenceOf([[{ name: 'a' }, { name: 'b' }], [{ name: 'a' }]]);

describe('max_turns', () => {
  it('counts chat spans', () => {
    expect(check('max_turns', 3, evidence)).toMatchObject({ status: 'pass', reason: '3 model calls (at most 3 expected)' });
    expect(check('max_turns', 2, evidence)).toMatchObject({ status: 'fail', reason: 'expected at most 2 model calls; saw 3 model calls' });
    expect(check('max_turns', 2, evidence).evidence).toHaveLength(3);
  });
  it('validates', () => {
    expect(invalid('max_turns', 'four')).toBe(
      'scenario.yaml at expect.checks[0].max_turns: expected a whole number of model calls (e.g. max_turns: 4), got string "four"',
    );
  });
});

describe('max_tool_calls', () => {
  it('takes a number or {max, nested}', () => {
    expect(check('max_tool_calls', 3, evidence).reason).toBe('3 tool calls (at most 3 expected)');
    expect(check('max_tool_calls', 2, evidence).reason).toBe('expected at most 2 tool calls; saw 3 (a x2, b x1)');
    expect(check('max_tool_calls', { max: 3, nested: true }, evidence).status).toBe('pass');
  });
  it('validates', () => {
    expect(invalid('max_tool_calls', -1)).toContain('expected a whole number of tool calls, got number -1');
    // A type error names the short form beside the object form.
    expect(invalid('max_tool_calls', '3')).toBe(
      'scenario.yaml at expect.checks[0].max_tool_calls: expected a whole number of tool calls (e.g. max_tool_calls: 3) or an object {max, nested?}, got string "3"',
    );
    expect(invalid('max_tool_calls', { max: 1, limit: 1 })).toContain('unknown key "limit"');
  });
});

describe('max_tokens', () => {
  it('total by default, input and output on request', () => {
    expect(check('max_tokens', 45, evidence).reason).toBe('used 45 tokens (input 30, output 15) within the budget');
    expect(check('max_tokens', 44, evidence).reason).toBe('expected at most 44 total tokens; used 45 (input 30, output 15)');
    expect(check('max_tokens', { input: 29 }, evidence).reason).toBe('expected at most 29 input tokens; used 30 (input 30, output 15)');
    expect(check('max_tokens', { output: 15, input: 30 }, evidence).status).toBe('pass');
  });
  it('says "1 token", not "1 tokens"', () => {
    expect(check('max_tokens', { output: 1 }, evidence).reason).toBe('expected at most 1 output token; used 15 (input 30, output 15)');
  });
  it('validates', () => {
    expect(invalid('max_tokens', {})).toContain('expected at least one of total, input, output');
    expect(invalid('max_tokens', '3')).toBe(
      'scenario.yaml at expect.checks[0].max_tokens: expected a whole number of tokens (e.g. max_tokens: 2000) or an object {total?, input?, output?}, got string "3"',
    );
    expect(invalid('max_tokens', [3])).toContain('or an object {total?, input?, output?}, got an array');
    expect(invalid('max_tokens', 1.5)).toContain('expected a whole number of tokens, got number 1.5');
  });
});

describe('max_duration_ms', () => {
  it('compares the root span duration', () => {
    expect(check('max_duration_ms', 1000, evidence).status).toBe('pass');
    expect(check('max_duration_ms', 1, evidence).reason).toMatch(/^expected the invoke to take at most 1 ms; it took \d+\.\d ms$/);
    expect(invalid('max_duration_ms', '1s')).toContain('expected a number of milliseconds (e.g. max_duration_ms: 5000), got string "1s"');
  });
  it('says the duration with one decimal whether it passes or fails, never one that contradicts the verdict', () => {
    const took = (ms: number) => ({ ...evidence, duration_ms: ms });
    expect(check('max_duration_ms', 10, took(7.14)).reason).toBe('the invoke took 7.1 ms (at most 10 expected)');
    expect(check('max_duration_ms', 10, took(7)).reason).toBe('the invoke took 7.0 ms (at most 10 expected)');
    expect(check('max_duration_ms', 5, took(7)).reason).toBe('expected the invoke to take at most 5 ms; it took 7.0 ms');
    expect(check('max_duration_ms', 5, took(7.14)).reason).toBe('expected the invoke to take at most 5 ms; it took 7.2 ms');
    expect(check('max_duration_ms', 7, took(7.02)).reason).toBe('expected the invoke to take at most 7 ms; it took 7.1 ms');
    expect(check('max_duration_ms', 7, took(6.99)).reason).toBe('the invoke took 6.9 ms (at most 7 expected)');
    expect(check('max_duration_ms', 1, took(1.1)).reason).toBe('expected the invoke to take at most 1 ms; it took 1.1 ms');
    // As docs/verdicts.md shows them.
    const docs = readFileSync(join(import.meta.dirname, '../../docs/verdicts.md'), 'utf8');
    expect(docs).toContain(`pass: \`${check('max_duration_ms', 1000, took(12.3)).reason}\``);
    expect(docs).toContain(`fail: \`${check('max_duration_ms', 1, took(12.3)).reason}\``);
  });
  it('compares the duration rounded to the microsecond, so a float subtraction never fails a budget it meets (black-box bug)', () => {
    const took = (ms: number) => ({ ...evidence, duration_ms: ms });
    for (const [ms, max] of [
      [0.30000000000000004, 0.3],
      [7.000000000000001, 7],
      [5000.000000000001, 5000],
      [7.0004, 7],
    ]) {
      expect(check('max_duration_ms', max, took(ms)), `${ms} at most ${max}`).toMatchObject({ status: 'pass' });
    }
    expect(check('max_duration_ms', 0.3, took(0.30000000000000004)).reason).toBe('the invoke took 0.3 ms (at most 0.3 expected)');
    expect(check('max_duration_ms', 7, took(7.0006)).reason).toBe('expected the invoke to take at most 7 ms; it took 7.1 ms');
    // Every failure's figure reads over the budget, every pass's within it (a sweep of durations
    // made as the root span's are, end minus start, against budgets near them).
    for (let start = 1000; start < 1003; start += 0.37) {
      for (let tenths = 0; tenths < 100; tenths++) {
        const max = tenths / 10;
        for (const end of [start + max, start + max + 0.0004, start + max + 0.0006, start + max + 0.04, start + Math.max(max - 0.04, 0)]) {
          const outcome = check('max_duration_ms', max, took(end - start));
          const figure = Number(/took (\d+\.\d) ms/.exec(outcome.reason)?.[1]);
          if (outcome.status === 'pass') expect(figure, outcome.reason).toBeLessThanOrEqual(max);
          else expect(figure, outcome.reason).toBeGreaterThan(max);
          if (end - start <= max + 0.0004) expect(outcome.status, `${end - start} at most ${max}`).toBe('pass');
        }
      }
    }
  });
});

describe('spans', () => {
  const errors = { filtering: { field: 'status', operator: 'is', value: 'error' } };
  const failing = evidenceOf([[{ name: 'a', outcome: 'error', result: 'x' }, { name: 'b' }]]);
  it('counts spans matching a query (default at least 1)', () => {
    expect(check('spans', { query: errors }, failing)).toMatchObject({ status: 'pass', reason: '1 span matched (expected at least 1)' });
    expect(check('spans', { query: errors }, evidence).reason).toBe('expected at least 1 span matching the query; 0 spans matched');
    const tools = { filtering: { field: 'attributes', key: 'gen_ai.operation.name', operator: 'is', value: 'execute_tool' }, windowing: { limit: 1 } };
    expect(check('spans', { query: tools, count: { equals: 3 } }, evidence).status).toBe('pass');
    expect(check('spans', { query: tools, count: { min: 1, max: 2 } }, evidence).reason).toBe(
      'expected at least 1 and at most 2 spans matching the query; 3 spans matched',
    );
    expect(check('spans', { query: tools, count: { max: 0 } }, evidence).reason).toBe('expected at most 0 spans matching the query; 3 spans matched');
  });
  it('agrees the noun with the last number said', () => {
    const tools = { filtering: { field: 'attributes', key: 'gen_ai.operation.name', operator: 'is', value: 'execute_tool' } };
    expect(check('spans', { query: tools, count: { equals: 1 } }, evidence).reason).toBe('expected exactly 1 span matching the query; 3 spans matched');
    expect(check('spans', { query: tools, count: { max: 1 } }, evidence).reason).toBe('expected at most 1 span matching the query; 3 spans matched');
    expect(check('spans', { query: tools, count: { min: 0, max: 1 } }, evidence).reason).toBe(
      'expected at least 0 and at most 1 span matching the query; 3 spans matched',
    );
  });
  it('finds nested spans too', () => {
    const run = new RunBuilder();
    run.modelCalls([{ name: 'chain' }]);
    const parent = run.spans().find((span) => span.name === 'execute_tool chain')!.span_id;
    run.step('chain', parent, 'x');
    const query = { filtering: { field: 'name', operator: 'startswith', value: 'chain_step' } };
    expect(check('spans', { query }, buildEvidence({ spans: run.spans() })).status).toBe('pass');
  });
  it('validates the query with its path', () => {
    expect(invalid('spans', { query: { filtering: { field: 'attributes', operator: 'exists' } } })).toContain(
      'at expect.checks[0].spans.query.filtering: field "attributes" needs a "key"',
    );
    expect(invalid('spans', { query: {}, count: { equals: 1, min: 1 } })).toContain('count takes equals, or min and/or max, not both');
    expect(invalid('spans', { count: { min: 1 } })).toContain('missing required key "query"');
  });
  it('refuses count min: 0 without max, which every run passes', () => {
    expect(invalid('spans', { query: errors, count: { min: 0 } })).toBe(
      'scenario.yaml at expect.checks[0].spans.count.min: min: 0 without max passes on every run (0 or more spans); give max (count: {max: 2} means at most 2), or equals',
    );
    expect(invalid('spans', { query: errors, count: { min: 0, max: 2 } })).toBeNull();
    expect(invalid('spans', { query: errors, count: { max: 0 } })).toBeNull();
    expect(invalid('spans', { query: errors, count: { equals: 0 } })).toBeNull();
  });
});
