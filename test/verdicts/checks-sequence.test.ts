import { describe, expect, it } from 'vitest';
import { callMismatch, type ExpectedCall } from '../../src/verdicts/call-match.js';
import { buildEvidence, visibleCalls } from '../../src/verdicts/evidence.js';
import type { ToolCall } from '../../src/verdicts/evidence-types.js';
import { compareTrajectory } from '../../src/verdicts/trajectory.js';
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
    expect(seq({ args_mode: 'superset', calls: [{ tool: 'lookup', args: { id: 1 } }, { tool: 'refund', args: {} }, ...base.slice(2)] }).status).toBe('pass');
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

  it('says "1 call" for one expected call, not "1 calls", in every mode', () => {
    const twice = evidenceOf([[{ name: 'echo', args: { text: 'a' } }], [{ name: 'echo', args: { text: 'b' } }]]);
    const one = check('tool_sequence', { mode: 'unordered', args_mode: 'ignore', calls: calls('echo') }, twice);
    expect(one.reason).toContain('expected exactly 1 call in any order; call 2 (echo) was not expected');
    expect(check('tool_sequence', { args_mode: 'ignore', calls: calls('echo') }, twice).reason).toContain(
      'strict: expected 1 call; call 2 (echo) was not expected',
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
  it('says "1 call" and "was" for one call in the pass reasons', () => {
    const one = evidenceOf([[{ name: 'lookup' }]]);
    expect(check('tool_sequence', { mode: 'in_order', calls: calls('lookup') }, one).reason).toBe(
      'in_order: the 1 expected call appeared in order; saw lookup x1',
    );
    expect(check('tool_sequence', { mode: 'subset', calls: calls('lookup', 'email') }, one).reason).toBe(
      'subset: the 1 call was among the expected; saw lookup x1',
    );
    expect(seq({ mode: 'subset', calls: calls('lookup', 'refund', 'email', 'close') }).reason).toBe(`subset: the 4 calls were all among the expected; ${SAW}`);
    expect(check('tool_sequence', { mode: 'superset', calls: calls('lookup') }, one).reason).toBe(
      'superset: the 1 call included every expected call; saw lookup x1',
    );
    expect(check('tool_sequence', { mode: 'unordered', calls: calls('lookup') }, one).reason).toBe('unordered: the 1 expected call was made in any order');
  });
});

describe('tool_sequence in_order: calls of one model response in any order, as in strict', () => {
  it('passes a list strict passes, with parallel calls given in the other order', () => {
    const ev = evidenceOf([
      [
        { name: 'search', args: { q: 'x' } },
        { name: 'email', args: { to: 'a' } },
      ],
    ]);
    const reversed = calls('email', 'search');
    expect(check('tool_sequence', { mode: 'strict', calls: reversed }, ev).status).toBe('pass');
    expect(check('tool_sequence', { mode: 'in_order', calls: reversed }, ev)).toMatchObject({
      status: 'pass',
      reason: 'in_order: the 2 expected calls appeared in order; saw search x1, email x1',
    });
    expect(seq({ mode: 'in_order', calls: calls('lookup', 'email', 'refund', 'close') }).status).toBe('pass');
  });

  describe('six calls across three responses', () => {
    const ev = evidenceOf([
      [{ name: 'a' }, { name: 'b' }],
      [{ name: 'c' }, { name: 'd' }],
      [{ name: 'e' }, { name: 'f' }],
    ]);
    const inOrder = (...names: string[]) => check('tool_sequence', { mode: 'in_order', calls: calls(...names) }, ev);
    const saw = 'saw a x1, b x1, c x1, d x1, e x1, f x1';

    it('passes a subsequence given in the other order within one response', () => {
      expect(check('tool_sequence', { calls: calls('b', 'a', 'd', 'c', 'f', 'e') }, ev).status).toBe('pass');
      expect(inOrder('d', 'c').status).toBe('pass');
      expect(inOrder('b', 'a', 'f', 'e').status).toBe('pass');
      expect(inOrder('b', 'd', 'c', 'e').status).toBe('pass');
    });

    it('still fails an order that crosses responses', () => {
      expect(inOrder('c', 'b').reason).toBe(`in_order: expected call 2 (b) did not appear in order after expected call 1; ${saw}`);
      expect(inOrder('a', 'e', 'd').reason).toBe(`in_order: expected call 3 (d) did not appear in order after expected call 2; ${saw}`);
      expect(inOrder('d', 'c', 'b').status).toBe('fail');
    });
  });

  it('pairs the calls of one response by a matching, where taking the first that fits would fail', () => {
    // The argument-free expectation fits both calls; first fit would give it {q: x} and leave
    // nothing for the second.
    const expected = [{ tool: 'search' }, { tool: 'search', args: { q: 'x' } }, { tool: 'email' }];
    const oneResponse = evidenceOf([
      [
        { name: 'search', args: { q: 'x' } },
        { name: 'search', args: { q: 'y' } },
      ],
      [{ name: 'email', args: {} }],
    ]);
    expect(check('tool_sequence', { mode: 'in_order', calls: expected }, oneResponse).status).toBe('pass');
    // Across two responses the order counts again: {q: x} came before the only other search.
    const twoResponses = evidenceOf([[{ name: 'search', args: { q: 'x' } }], [{ name: 'search', args: { q: 'y' } }], [{ name: 'email', args: {} }]]);
    expect(check('tool_sequence', { mode: 'in_order', calls: expected }, twoResponses).reason).toBe(
      'in_order: expected call 2 (search) did not appear in order after expected call 1; closest: search call 2: argument "q": expected "x", got "y"; saw search x2, email x1',
    );
  });
});

describe('tool_sequence in_order against its definition, exhaustively on small runs', () => {
  // Definition: each expected call pairs with its own fitting actual call, and the responses
  // those calls came from never go back.
  const kinds = [
    { name: 's', args: { q: 1 } },
    { name: 's', args: { q: 2 } },
    { name: 't', args: {} },
  ];
  const wanted: ExpectedCall[] = [{ tool: 's' }, { tool: 's', args: { q: 1 } }, { tool: 's', args: { q: 2 } }, { tool: 't' }];
  const lists = <T>(items: readonly T[], length: number): T[][] =>
    length === 0 ? [[]] : lists(items, length - 1).flatMap((list) => items.map((item) => [...list, item]));

  function holds(expected: ExpectedCall[], actual: ToolCall[], response: number[]): boolean {
    const used = new Set<number>();
    const place = (e: number, from: number): boolean =>
      e === expected.length ||
      actual.some((call, a) => {
        if (used.has(a) || response[a] < from || callMismatch(expected[e], call, 'exact') !== null) return false;
        used.add(a);
        if (place(e + 1, response[a])) return true;
        used.delete(a);
        return false;
      });
    return place(0, 0);
  }

  it('agrees on every list of up to 3 expected calls, for every run of 3 calls split into responses', () => {
    const expectedLists = [1, 2, 3].flatMap((length) => lists(wanted, length));
    let passed = 0;
    for (const run of lists(kinds, 3)) {
      // Every way to cut the 3 calls into consecutive responses.
      for (const cuts of [[3], [1, 2], [2, 1], [1, 1, 1]]) {
        const responses = cuts.map((size, index) => run.slice(cuts.slice(0, index).reduce((sum, n) => sum + n, 0)).slice(0, size));
        const response = cuts.flatMap((size, index) => new Array<number>(size).fill(index));
        const actual = visibleCalls(evidenceOf(responses));
        for (const expected of expectedLists) {
          const outcome = compareTrajectory('in_order', expected, actual, 'exact');
          expect(outcome.ok, `${JSON.stringify(expected)} against ${JSON.stringify(responses)}: ${outcome.reason}`).toBe(holds(expected, actual, response));
          if (outcome.ok) passed++;
        }
      }
    }
    // Both outcomes are exercised, not only one.
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(27 * 4 * expectedLists.length);
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
  it("refuses a call's args_mode without its args, and its args under args_mode: ignore (its own or the check's)", () => {
    const at = 'scenario.yaml at expect.checks[0].tool_sequence';
    expect(invalid('tool_sequence', { calls: [{ tool: 'a' }, { tool: 'b', args_mode: 'subset' }] })).toBe(
      `${at}.calls[1].args_mode: args_mode compares the call's arguments with "args": give "args" too (without them a call with any arguments matches)`,
    );
    expect(invalid('tool_sequence', { calls: [{ tool: 'a', args: { x: 1 }, args_mode: 'ignore' }] })).toBe(
      `${at}.calls[0].args: args are not compared under args_mode: ignore; remove args, or compare them with args_mode superset, subset or exact`,
    );
    expect(
      invalid('tool_sequence', {
        args_mode: 'ignore',
        calls: [
          { tool: 'a', args: { x: 1 } },
          { tool: 'b', args: { y: 1 } },
        ],
      }),
    ).toBe(
      [
        `${at}.calls[0].args: args are not compared under args_mode: ignore (the check's); remove args, or compare them with args_mode superset, subset or exact`,
        `${at}.calls[1].args: args are not compared under args_mode: ignore (the check's); remove args, or compare them with args_mode superset, subset or exact`,
      ].join('\n'),
    );
    // A call's own mode wins over the check's ignore.
    expect(invalid('tool_sequence', { args_mode: 'ignore', calls: [{ tool: 'a', args: { x: 1 }, args_mode: 'exact' }, { tool: 'b' }] })).toBeNull();
    expect(invalid('tool_sequence', { args_mode: 'superset', calls: [{ tool: 'a', args: { x: 1 } }, { tool: 'b' }] })).toBeNull();
  });
  it("refuses the check's args_mode when no call gives args it applies to (but ignore, which says so)", () => {
    const message = `scenario.yaml at expect.checks[0].tool_sequence.args_mode: args_mode compares each call's arguments with its "args", but no call gives "args" without an args_mode of its own, so it compares nothing (a call without args matches any arguments); give a call args, or remove args_mode`;
    expect(invalid('tool_sequence', { args_mode: 'subset', calls: [{ tool: 'a' }, { tool: 'b' }] })).toBe(message);
    expect(invalid('tool_sequence', { args_mode: 'exact', calls: [] })).toBe(message);
    expect(invalid('tool_sequence', { args_mode: 'superset', calls: [{ tool: 'a', args: { x: 1 }, args_mode: 'exact' }] })).toBe(message);
    expect(invalid('tool_sequence', { args_mode: 'exact', calls: [{ tool: 'a', args: {} }] })).toBeNull();
    // ignore without args says what happens (no argument is compared), as a call's own ignore does.
    expect(invalid('tool_sequence', { args_mode: 'ignore', calls: [{ tool: 'a' }, { tool: 'b', args_mode: 'ignore' }] })).toBeNull();
  });
  it('refuses calls: [] where every run would pass (superset, in_order), keeps it where it means "no tool calls"', () => {
    for (const mode of ['superset', 'in_order']) {
      expect(invalid('tool_sequence', { mode, calls: [] })).toBe(
        `scenario.yaml at expect.checks[0].tool_sequence.calls: expected at least 1 item(s) with mode ${mode}, which an empty list of calls passes on every run; mode strict with calls: [] means "no tool calls"`,
      );
      expect(invalid('tool_sequence', { mode, calls: [{ tool: 'a' }] })).toBeNull();
    }
    const oneCall = evidenceOf([[{ name: 'a' }]]);
    const noCalls = evidenceOf([]);
    for (const mode of [undefined, 'strict', 'unordered', 'subset']) {
      expect(check('tool_sequence', { mode, calls: [] }, noCalls).status).toBe('pass');
      expect(check('tool_sequence', { mode, calls: [] }, oneCall).status).toBe('fail');
    }
  });
});
