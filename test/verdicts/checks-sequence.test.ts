import { describe, expect, it } from 'vitest';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { check, evidenceOf, invalid } from './check-helpers.js';
import { RunBuilder } from './span-builder.js';

// Turn 0: lookup(1); turn 1: refund(1) and email(a) in one response; turn 2: close.
const evidence = evidenceOf([
  [{ name: 'lookup', args: { id: 1 } }],
  [
    { name: 'refund', args: { id: 1 } },
    { name: 'email', args: { to: 'a' } },
  ],
  [{ name: 'close', args: {} }],
]);
const seq = (params: Record<string, unknown>) => check('tool_sequence', params, evidence);
const calls = (...names: string[]) => names.map((tool) => ({ tool }));
const SAW = 'saw lookup x1, refund x1, email x1, close x1';

describe('tool_sequence strict (the default)', () => {
  it('passes for the same calls in order, any order within one model response', () => {
    expect(seq({ calls: calls('lookup', 'refund', 'email', 'close') })).toMatchObject({
      status: 'pass',
      reason: `strict: the 4 calls matched in order; ${SAW}`,
    });
    expect(seq({ calls: calls('lookup', 'email', 'refund', 'close') }).status).toBe('pass');
  });

  it('fails when order crosses model responses', () => {
    expect(seq({ calls: calls('refund', 'lookup', 'email', 'close') }).reason).toBe(
      `strict: expected call 1 (refund) at call 1: is lookup, not refund; ${SAW}`,
    );
    expect(seq({ calls: calls('lookup', 'refund', 'close', 'email') }).reason).toBe(
      `strict: expected call 3 (close) at calls 2-3 (one model response); ${SAW}`,
    );
  });

  it('fails on missing and extra calls', () => {
    expect(seq({ calls: calls('lookup', 'refund', 'email', 'close', 'notify') }).reason).toBe(
      `strict: expected call 5 (notify) but the run made only 4 calls; ${SAW}`,
    );
    expect(seq({ calls: calls('lookup', 'refund', 'email') }).reason).toBe(`strict: expected 3 calls; call 4 (close) was not expected; ${SAW}`);
  });

  it('compares args exactly by default, per-call args_mode overrides', () => {
    const base = [{ tool: 'lookup', args: { id: 1 } }, { tool: 'refund', args: { id: 1 } }, { tool: 'email' }, { tool: 'close' }];
    expect(seq({ calls: base }).status).toBe('pass');
    expect(seq({ calls: [{ tool: 'lookup', args: { id: 2 } }, ...base.slice(1)] }).reason).toBe(
      `strict: expected call 1 (lookup) at call 1: argument "id": expected 2, got 1; ${SAW}`,
    );
    expect(seq({ calls: [{ tool: 'lookup', args: {} }, ...base.slice(1)] }).reason).toContain('argument "id": not expected (got 1)');
    expect(seq({ calls: [{ tool: 'lookup', args: {}, args_mode: 'superset' }, ...base.slice(1)] }).status).toBe('pass');
    expect(seq({ args_mode: 'ignore', calls: [{ tool: 'lookup', args: { id: 9 } }, ...base.slice(1)] }).status).toBe('pass');
  });
});

describe('tool_sequence unordered', () => {
  it('passes for the same multiset in any order', () => {
    expect(seq({ mode: 'unordered', calls: calls('close', 'email', 'lookup', 'refund') }).reason).toBe(
      'unordered: the 4 expected calls were made in any order',
    );
  });
  it('fails on a missing or an extra call', () => {
    expect(seq({ mode: 'unordered', calls: calls('close', 'email', 'lookup') }).reason).toBe(
      `unordered: expected exactly 3 calls in any order; call 2 (refund) was not expected; ${SAW}`,
    );
    expect(seq({ mode: 'unordered', calls: calls('close', 'email', 'lookup', 'refund', 'refund') }).reason).toBe(
      `unordered: expected call 5 (refund) matched no remaining call; ${SAW}`,
    );
  });
  it('names the differing argument of the closest call', () => {
    expect(seq({ mode: 'unordered', calls: [{ tool: 'refund', args: { id: 2 } }, ...calls('close', 'email', 'lookup')] }).reason).toBe(
      `unordered: expected call 1 (refund) matched no remaining call; closest: refund call 2: argument "id": expected 2, got 1; ${SAW}`,
    );
  });
  it('finds a matching when greedy first-fit would not', () => {
    const ev = evidenceOf([
      [
        { name: 'f', args: { x: 1 } },
        { name: 'f', args: { x: 2 } },
      ],
    ]);
    const result = check(
      'tool_sequence',
      {
        mode: 'unordered',
        calls: [
          { tool: 'f', args: { x: { $one_of: [1, 2] } } },
          { tool: 'f', args: { x: 1 } },
        ],
      },
      ev,
    );
    expect(result.status).toBe('pass');
  });
});

describe('tool_sequence subset / superset / in_order', () => {
  it('subset: every actual call appears among the expected', () => {
    expect(seq({ mode: 'subset', calls: calls('lookup', 'refund', 'email', 'close', 'extra') }).status).toBe('pass');
    expect(seq({ mode: 'subset', calls: calls('lookup', 'refund', 'email') }).reason).toBe(
      `subset: expected every call among the 3 expected; call 4 (close) was not expected; ${SAW}`,
    );
  });
  it('superset: every expected call appears among the actual', () => {
    expect(seq({ mode: 'superset', calls: calls('close', 'lookup') }).reason).toBe(`superset: the 4 calls included every expected call; ${SAW}`);
    expect(seq({ mode: 'superset', calls: calls('close', 'notify') }).reason).toBe(`superset: expected call 2 (notify) matched no call; ${SAW}`);
  });
  it('in_order: the expected calls appear as a subsequence', () => {
    expect(seq({ mode: 'in_order', calls: calls('lookup', 'close') }).reason).toBe(`in_order: the 2 expected calls appeared in order; ${SAW}`);
    expect(seq({ mode: 'in_order', calls: calls('close', 'lookup') }).reason).toBe(
      `in_order: expected call 2 (lookup) did not appear in order after expected call 1; ${SAW}`,
    );
  });
});

describe('tool_sequence with flow steps and nested calls', () => {
  it('flow-step calls (no turn) are single groups; nested calls only with nested: true', () => {
    const run = new RunBuilder();
    run.tool('read_file', {}, { parent: run.component('read', 'deterministic_step'), source: 'flow', result: 'x' });
    run.modelCalls([{ name: 'plan_tool' }]);
    const plan = run.spans().find((span) => span.name === 'execute_tool plan_tool')!.span_id;
    run.tool('echo', {}, { parent: run.step('plan', plan, 'echo'), source: 'plan', result: 'x' });
    const ev = buildEvidence({ spans: run.spans() });
    expect(check('tool_sequence', { calls: calls('read_file', 'plan_tool') }, ev).status).toBe('pass');
    expect(check('tool_sequence', { calls: calls('read_file', 'plan_tool', 'echo'), nested: true }, ev).status).toBe('pass');
  });
});

describe('tool_sequence validation', () => {
  it('names bad modes, calls and args', () => {
    expect(invalid('tool_sequence', { mode: 'loose', calls: [] })).toContain(
      'at expect.checks[0].tool_sequence.mode: expected one of "strict" | "unordered" | "subset" | "superset" | "in_order"',
    );
    expect(invalid('tool_sequence', { calls: [{ tool: 'a', arg: {} }] })).toContain('at expect.checks[0].tool_sequence.calls[0].arg: unknown key "arg"');
    expect(invalid('tool_sequence', { calls: [{ tool: 'a', args: { x: { $range: 'x' } } }] })).toContain('calls[0].args.x.$range: $range needs [min, max]');
    expect(invalid('tool_sequence', {})).toContain('missing required key "calls"');
  });
});
