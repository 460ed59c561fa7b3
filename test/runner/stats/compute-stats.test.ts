import { describe, expect, it } from 'vitest';
import { computeStats, statsOf } from '../../../src/runner/stats/compute-stats.js';
import { STATS_SCHEMA } from '../../../src/runner/stats/stats-types.js';
import { report, row, testRunResult } from '../reporters/fixture-report.js';
import { pairedReport } from './paired-fixture.js';

const id = (name: string) => `p.scenarios.yaml#${name}`;

describe('computeStats per variant', () => {
  const stats = computeStats(pairedReport());

  it('counts pass, fail and error rows only, with the Wilson interval', () => {
    // base: 12 counted rows, 3 + 2 + 0 + 3 = 8 passed. lean: s4 counts only its error row: 10 rows, 4 passed.
    // Intervals from scipy.stats.binomtest(k, n).proportion_ci(method='wilson').
    expect(stats.schema).toBe(STATS_SCHEMA);
    expect(stats.base).toBe('base');
    const { base, lean } = stats.variants;
    expect([base.runs, base.passed, base.pass_rate]).toEqual([12, 8, 8 / 12]);
    expect(base.pass_rate_ci!.low).toBeCloseTo(0.39062208887279953, 12);
    expect(base.pass_rate_ci!.high).toBeCloseTo(0.8618799089087867, 12);
    expect([lean.runs, lean.passed]).toEqual([10, 4]);
    expect(lean.pass_rate_ci!.low).toBeCloseTo(0.16818032970623614, 12);
    expect(lean.pass_rate_ci!.high).toBeCloseTo(0.6873262302663417, 12);
  });

  it('labels scenarios and averages pass@k and pass^k over scenarios with n >= k', () => {
    expect(stats.variants.base.labels).toEqual({ stable_pass: 2, flaky: 1, stable_fail: 1 });
    expect(stats.variants.lean.labels).toEqual({ stable_pass: 1, flaky: 1, stable_fail: 2 });
    expect(stats.scenarios[id('s2')]).toEqual({ base: { runs: 3, passed: 2, label: 'flaky' }, lean: { runs: 3, passed: 0, label: 'stable-fail' } });
    expect(stats.scenarios[id('s4')].lean).toEqual({ runs: 1, passed: 0, label: 'stable-fail' });

    // base outcomes (n, c): (3,3) (3,2) (3,0) (3,3)
    //   k=1: pass@1 = pass^1 = (1 + 2/3 + 0 + 1) / 4 = 2/3
    //   k=2: pass@2 = (1 + [1 - C(1,2)/C(3,2) = 1] + 0 + 1) / 4 = 3/4; pass^2 = (1 + C(2,2)/C(3,2) + 0 + 1) / 4 = (2 + 1/3) / 4 = 7/12
    //   k=3: pass@3 = (1 + 1 + 0 + 1) / 4 = 3/4; pass^3 = (1 + 0 + 0 + 1) / 4 = 1/2
    const base = stats.variants.base.pass_k;
    expect(base.map((e) => e.k)).toEqual([1, 2, 3]);
    expect(base.map((e) => e.scenarios)).toEqual([4, 4, 4]);
    expect(base[0].pass_at_k).toBeCloseTo(2 / 3, 12);
    expect(base[0].pass_hat_k).toBeCloseTo(2 / 3, 12);
    expect(base[1].pass_at_k).toBeCloseTo(3 / 4, 12);
    expect(base[1].pass_hat_k).toBeCloseTo(7 / 12, 12);
    expect(base[2].pass_at_k).toBeCloseTo(3 / 4, 12);
    expect(base[2].pass_hat_k).toBeCloseTo(1 / 2, 12);

    // lean outcomes: (3,3) (3,0) (3,1) (1,0); s4 drops out for k >= 2
    //   k=1: (1 + 0 + 1/3 + 0) / 4 = 1/3
    //   k=2: pass@2 = (1 + 0 + [1 - C(2,2)/C(3,2) = 2/3]) / 3 = 5/9; pass^2 = (1 + 0 + 0) / 3 = 1/3
    //   k=3: pass@3 = (1 + 0 + [1 - C(2,3)/C(3,3) = 1]) / 3 = 2/3; pass^3 = 1/3
    const lean = stats.variants.lean.pass_k;
    expect(lean.map((e) => e.scenarios)).toEqual([4, 3, 3]);
    expect(lean[0].pass_at_k).toBeCloseTo(1 / 3, 12);
    expect(lean[1].pass_at_k).toBeCloseTo(5 / 9, 12);
    expect(lean[1].pass_hat_k).toBeCloseTo(1 / 3, 12);
    expect(lean[2].pass_at_k).toBeCloseTo(2 / 3, 12);
    expect(lean[2].pass_hat_k).toBeCloseTo(1 / 3, 12);
  });

  it('summarizes turns, tokens and durations of counted rows (nearest rank)', () => {
    // base durations 10..120: mean 65, p50 = rank ceil(6) = 60, p95 = rank ceil(11.4) = 12 -> 120
    expect(stats.variants.base.duration_ms).toEqual({ n: 12, mean: 65, p50: 60, p95: 120 });
    expect(stats.variants.base.tokens.input).toEqual({ n: 12, mean: 100, p50: 100, p95: 100 });
    expect(stats.variants.base.tokens.total).toEqual({ n: 12, mean: 165, p50: 160, p95: 220 });
    // lean: the not_run and skipped rows (9999 ms, 7 turns, the not_run one with usage) are left out
    expect(stats.variants.lean.duration_ms).toEqual({ n: 10, mean: 5, p50: 5, p95: 5 });
    expect(stats.variants.lean.tokens.output).toEqual({ n: 10, mean: 10, p50: 10, p95: 10 });
    expect(stats.variants.lean.turns).toEqual({ n: 10, mean: 3, p50: 3, p95: 3 });
  });
});

describe('computeStats of runs that made no choices', () => {
  // lean's server did not start (MCP_START_FAILED: no model call) or its model had no script
  // (SCRIPT_MISSING: one failed model call); each is a counted error, with zero usage.
  const failed = (name: string, turns: number) =>
    row('n.yaml', name, {
      variant: 'lean',
      status: 'error',
      error: { type: 'X', message: 'x' },
      test_run: testRunResult({ tools: [], stop_reason: 'error', verdict: 'failed' }),
      checks: [],
      turns,
      duration_ms: 40,
      usage: { input_tokens: 0, output_tokens: 0 },
      expected_tools: ['lookup_order'],
      no_choices: true,
    });
  const ran = (name: string) =>
    row('n.yaml', name, { expected_tools: ['lookup_order'], turns: 3, duration_ms: 20, usage: { input_tokens: 9, output_tokens: 1 } });
  const stats = computeStats(report([ran('a'), ran('b'), failed('a', 0), failed('b', 1)]));

  it('counts them as errors in the pass rate and their wall time, not in tool selection, turns or tokens', () => {
    const { lean } = stats.variants;
    expect([lean.runs, lean.passed, lean.pass_rate]).toEqual([2, 0, 0]);
    expect(lean.labels).toEqual({ stable_pass: 0, flaky: 0, stable_fail: 2 });
    expect(lean.tool_selection).toMatchObject({ runs: 0, recall: null, macro_recall: null, confusion: {} });
    expect(lean.turns).toEqual({ n: 0, mean: null, p50: null, p95: null });
    expect(lean.tokens.total).toEqual({ n: 0, mean: null, p50: null, p95: null });
    expect(lean.duration_ms).toEqual({ n: 2, mean: 40, p50: 40, p95: 40 });
    expect(stats.paired[0]).toMatchObject({ pairs: 2, base_only: 2 });
  });

  it('leaves the runs that made choices as they were', () => {
    const { base } = stats.variants;
    expect(base.tool_selection).toMatchObject({ runs: 2, recall: 1 });
    expect(base.turns).toEqual({ n: 2, mean: 3, p50: 3, p95: 3 });
    expect(base.tokens.total).toEqual({ n: 2, mean: 10, p50: 10, p95: 10 });
  });
});

describe('computeStats paired comparison', () => {
  const [paired] = computeStats(pairedReport()).paired;

  it('tabulates the scenario x repeat pairs and runs McNemar on the discordant ones', () => {
    // s1: 3 both pass. s2: base-only, base-only, both fail. s3: variant-only, both fail x2.
    // s4: only repeat 0 pairs (pass vs error): base-only. 10 pairs.
    expect(paired).toMatchObject({ base: 'base', variant: 'lean', pairs: 10, scenarios: 4, both_pass: 3, base_only: 3, variant_only: 1, both_fail: 3 });
    // McNemar b=3, c=1: 2 * (C(4,0) + C(4,1)) / 2^4 = 10/16
    expect(paired.mcnemar_p).toBe(0.625);
    expect(paired.base_pass_rate).toBeCloseTo(0.6, 12);
    expect(paired.variant_pass_rate).toBeCloseTo(0.4, 12);
    expect(paired.difference).toBeCloseTo(-0.2, 12);
    expect(paired.flipped_to_fail).toEqual([id('s2'), id('s4')]);
    expect(paired.flipped_to_pass).toEqual([id('s3')]);
    expect(paired.bootstrap).toEqual({ resamples: 2000, seed: expect.any(Number) });
  });

  it('brackets the difference with a bootstrap interval inside the possible range', () => {
    // Cluster differences: s1 0/3, s2 -2/3, s3 +1/3, s4 -1/1. The most extreme resamples are
    // all-s4 (-1) and all-s3 (+1/3), so the interval lies within [-1, 1/3].
    const ci = paired.difference_ci!;
    expect(ci.low).toBeLessThanOrEqual(-0.2);
    expect(ci.high).toBeGreaterThanOrEqual(-0.2);
    expect(ci.low).toBeGreaterThanOrEqual(-1);
    expect(ci.high).toBeLessThanOrEqual(1 / 3 + 1e-12);
    expect(computeStats(pairedReport()).paired[0].difference_ci).toEqual(ci);
  });

  it('pairs against the first variant when there is no base, and not at all with one variant', () => {
    const rows = [row('a.yaml', 'x', { variant: 'v1' }), row('a.yaml', 'x', { variant: 'v2', status: 'fail' })];
    const stats = computeStats(report(rows));
    expect(stats.base).toBe('v1');
    expect(stats.paired.map((p) => [p.base, p.variant, p.base_only])).toEqual([['v1', 'v2', 1]]);
    expect(computeStats(report([row('a.yaml', 'x')])).paired).toEqual([]);
    expect(computeStats(report([]))).toMatchObject({ base: null, variants: {}, scenarios: {}, paired: [] });
  });

  it('gives no McNemar p (null, like every other paired number) to a variant with no pairs', () => {
    const rows = [row('a.yaml', 'x'), row('a.yaml', 'x', { variant: 'lean', status: 'not_run' })];
    const [paired] = computeStats(report(rows)).paired;
    expect(paired).toMatchObject({ variant: 'lean', pairs: 0, difference: null, difference_ci: null, mcnemar_p: null });
    // With pairs but no discordant ones, p = 1 as the formula says.
    expect(computeStats(report([row('a.yaml', 'x'), row('a.yaml', 'x', { variant: 'lean' })])).paired[0].mcnemar_p).toBe(1);
  });

  it("keeps every suite variant in an empty shard's stats: no counted runs, no rates", () => {
    const empty = report([]);
    empty.suite.variants = ['base', 'lean'];
    const stats = computeStats(empty);
    expect(Object.keys(stats.variants)).toEqual(['base', 'lean']);
    expect(stats.variants.lean).toMatchObject({ runs: 0, passed: 0, pass_rate: null });
    // No rows, so nothing is compared: no reference variant and no paired entries.
    expect(stats.base).toBeNull();
    expect(stats.paired).toEqual([]);
  });
});

describe('computeStats sums in one order', () => {
  // z, x, y as a file lists them; x, y, z by id (a merged report's order). Four repeats: z passes
  // 4, x and y 2 each, so pass^2 = mean(1, 1/6, 1/6), which floating point sums to 1.3333333333333335
  // in file order and 1.3333333333333333 in id order. Durations 0.1, 0.2, 0.7 likewise.
  const plan: Array<[string, number, number]> = [
    ['z', 4, 0.1],
    ['x', 2, 0.2],
    ['y', 2, 0.7],
  ];
  const rows = plan.flatMap(([name, passes, duration]) =>
    [0, 1, 2, 3].map((repeat) =>
      row('o.yaml', name, {
        repeat,
        status: repeat < passes ? 'pass' : 'fail',
        duration_ms: duration,
        expected_tools: ['lookup_order', 'send_email'],
        turns: repeat + 1,
        usage: { input_tokens: 1, output_tokens: repeat },
      }),
    ),
  );

  it('gives the same numbers, to the last bit and in the same key order, whatever order the rows come in', () => {
    const inFileOrder = JSON.stringify(computeStats(report(rows)));
    expect(JSON.stringify(computeStats(report([...rows].reverse())))).toBe(inFileOrder);
    const byId = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.repeat - b.repeat));
    expect(JSON.stringify(computeStats(report(byId)))).toBe(inFileOrder);
  });

  it('sums in id order, as a merged report lists its rows', () => {
    const base = computeStats(report(rows)).variants.base;
    expect(base.pass_k[1].pass_hat_k).toBe((1 / 6 + 1 / 6 + 1) / 3);
    expect((1 / 6 + 1 / 6 + 1) / 3).not.toBe((1 + 1 / 6 + 1 / 6) / 3);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const [x, y, z] = [Array(4).fill(0.2), Array(4).fill(0.7), Array(4).fill(0.1)];
    expect(base.duration_ms.mean).toBe(sum([...x, ...y, ...z]) / 12);
    expect(sum([...x, ...y, ...z])).not.toBe(sum([...z, ...x, ...y]));
  });
});

describe('statsOf', () => {
  it('uses the stats a report carries and computes them for older reports', () => {
    const input = pairedReport();
    expect(statsOf(input)).toEqual(computeStats(input));
    const carried = { ...computeStats(input), base: 'lean' };
    expect(statsOf({ ...input, stats: carried }).base).toBe('lean');
  });
});
