import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../../src/runner/report/report.js';
import { runCli } from '../../e2e/cli.js';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

const AGENT = `id: stats-bot
agent:
  name: Stats bot
  llm: {provider: scripted, model: e2e}
  tools:
    - {name: lookup, description: Look up., read_only: true, parameters: {type: object, properties: {id: {type: string}}}, returns: {status: ok}}
    - {name: search, description: Search., read_only: true, parameters: {type: object}, returns: {hits: []}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;

function scenario(name: string, calls: string[], expect: string): string {
  const script = calls.map((tool) => `    - tool_calls: [{name: ${tool}, args: {}}]\n`).join('');
  return `name: ${name}\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel:\n  script:\n${script}    - text: done\nexpect:\n${expect}`;
}

const EXPECT_FINISH_AND_LOOKUP = '  terminal_tool: finish\n  checks:\n    - tool_called: {tool: lookup}\n';

describe('report.json stats of a run (the first on the built CLI, --repeat 3, two variants)', () => {
  it('computes the statistics of a suite whose outcomes are known by construction', async () => {
    // a: lookup, finish     expects finish + lookup   base passes; lean (finish removed) fails
    // b: search, finish     expects finish + lookup   fails in both: lookup missed, search instead
    // c: lookup             expects lookup only       passes in both (no terminal tool, no verdict)
    const dir = tempDir({
      'agent.yaml': AGENT,
      'agentcheck.config.yaml': 'variants:\n  lean: {remove: ["agent.tools[name=finish]"]}\n',
      'a.scenario.yaml': scenario('a', ['lookup', 'finish'], EXPECT_FINISH_AND_LOOKUP),
      'b.scenario.yaml': scenario('b', ['search', 'finish'], EXPECT_FINISH_AND_LOOKUP),
      'c.scenario.yaml': scenario('c', ['lookup'], '  checks:\n    - tool_called: {tool: lookup}\n'),
    });
    // Wide enough that no column is dropped: this test reads the statistics, not the fit.
    const result = await runCli(['run', '.', '--repeat', '3', '--out', 'out', '--reporter', 'table,json'], dir, { COLUMNS: '200' });
    expect(result.exitCode, result.all).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    const stats = report.stats!;
    expect(stats.schema).toBe('agentcheck.stats/1');
    expect(report.scenarios.find((r) => r.id === 'a.scenario.yaml#a')?.expected_tools).toEqual(['finish', 'lookup']);
    expect(report.scenarios.every((r) => r.usage && r.usage.input_tokens > 0)).toBe(true);

    // Pass rates: base 6/9, lean 3/9; Wilson bounds from scipy's binomtest(...).proportion_ci(method='wilson').
    const { base, lean } = stats.variants;
    expect([base.runs, base.passed, lean.runs, lean.passed]).toEqual([9, 6, 9, 3]);
    expect(base.pass_rate_ci!.low).toBeCloseTo(0.3542021355803963, 10);
    expect(base.pass_rate_ci!.high).toBeCloseTo(0.879416181613089, 10);
    expect(lean.pass_rate_ci!.low).toBeCloseTo(0.12058381838691096, 10);
    expect(lean.pass_rate_ci!.high).toBeCloseTo(0.6457978644196036, 10);
    // Scripted runs are deterministic, so every scenario is stable: pass@k = pass^k = share of passing scenarios.
    expect(base.labels).toEqual({ stable_pass: 2, flaky: 0, stable_fail: 1 });
    expect(lean.labels).toEqual({ stable_pass: 1, flaky: 0, stable_fail: 2 });
    for (const entry of base.pass_k) {
      expect(entry.pass_at_k).toBeCloseTo(2 / 3, 12);
      expect(entry.pass_hat_k).toBeCloseTo(2 / 3, 12);
    }
    expect(lean.pass_k.map((e) => e.k)).toEqual([1, 2, 3]);
    expect(lean.pass_k[2].pass_hat_k).toBeCloseTo(1 / 3, 12);
    expect(stats.scenarios['b.scenario.yaml#b']).toEqual({
      base: { runs: 3, passed: 0, label: 'stable-fail' },
      lean: { runs: 3, passed: 0, label: 'stable-fail' },
    });

    // Tool selection per run: a hits 2 of called 2 / expected 2; b hits 1 of 2 / 2 (search wrong);
    // c hits 1 of 1 / 1. Micro: 4/5 both ways; macro: mean(1, 1/2, 1) = 5/6 both ways. A call of the
    // removed finish tool is still the model's choice, so lean scores the same.
    for (const variant of [base, lean]) {
      const ts = variant.tool_selection;
      expect(ts.runs).toBe(9);
      expect(ts.precision).toBeCloseTo(0.8, 12);
      expect(ts.recall).toBeCloseTo(0.8, 12);
      expect(ts.macro_precision).toBeCloseTo(5 / 6, 12);
      expect(ts.macro_recall).toBeCloseTo(5 / 6, 12);
      expect(ts.wrong_tool_calls.total).toBe(3);
      expect(ts.confusion).toEqual({ lookup: { missed: 3, called_instead: { search: 3 } } });
    }
    // Model calls: a 3, b 3, c 2 per repeat: mean 8/3, p50 (rank 5 of 9) = 3, p95 (rank 9) = 3.
    expect(base.turns).toEqual({ n: 9, mean: 8 / 3, p50: 3, p95: 3 });
    expect(base.duration_ms.n).toBe(9);

    // Pairs: c both pass x3, a base-only x3, b both fail x3. McNemar b=3, c=0: 2/8.
    expect(stats.paired).toHaveLength(1);
    const paired = stats.paired[0];
    expect(paired).toMatchObject({ base: 'base', variant: 'lean', pairs: 9, both_pass: 3, base_only: 3, variant_only: 0, both_fail: 3, mcnemar_p: 0.25 });
    expect(paired.difference).toBeCloseTo(-1 / 3, 12);
    expect(paired.flipped_to_fail).toEqual(['a.scenario.yaml#a']);
    expect(paired.flipped_to_pass).toEqual([]);
    // Resampling 3 scenarios, the difference is -(number of a draws)/3: within [-1, 0].
    expect(paired.difference_ci!.low).toBeGreaterThanOrEqual(-1);
    expect(paired.difference_ci!.high).toBeLessThanOrEqual(0);

    // Terminal row. The interval's ends: all-a resamples (difference -1) have probability 1/27 = 3.7%
    // (about 74 of 2,000), above the 2.5% tail; no-a resamples (0) have 8/27. So (-100, +0) pp.
    expect(result.stdout).toMatch(/│ lean\s+│\s+9 │\s+3 │\s+33\.3% │ \(12\.1%, 64\.6%\) │\s+33\.3% │\s+80% │\s+80% │\s+0\.250 │ \s*-33\.3 pp \(-100, \+0\) │/);
  });

  it("keeps the config's variant order, base first, for names like 2 and 10 that JavaScript objects put first", async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'agentcheck.config.yaml':
        'variants:\n  lean: {remove: ["agent.tools[name=finish]"]}\n  2: {set: {agent: {instructions: two}}}\n  10: {set: {agent: {instructions: ten}}}\n',
      'a.scenario.yaml': scenario('a', ['lookup', 'finish'], EXPECT_FINISH_AND_LOOKUP),
    });
    // A run's report like the built CLI's above (run, exit 1): the CLI's entry in-process (runMain).
    const result = await runMain(['run', '.', '--out', 'out', '--reporter', 'json,md'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const text = readFileSync(join(dir, 'out', 'report.json'), 'utf8');
    const report = JSON.parse(text) as Report;
    const order = ['base', 'lean', '2', '10'];
    expect(report.suite.variants).toEqual(order);
    expect(report.scenarios.map((row) => row.variant)).toEqual(order);
    expect(report.stats!.paired.map((p) => p.variant)).toEqual(['lean', '2', '10']);
    // The text of report.json holds the keys in that order (a parsed object would put 2 and 10 first).
    const keysOf = (json: string, field: string) => {
      const start = json.indexOf(`"${field}": {`);
      const block = json.slice(start, json.indexOf('\n    }', start));
      return [...block.matchAll(/^ {6}"([^"]+)": /gm)].map((m) => m[1]);
    };
    const stats = text.slice(text.indexOf('\n  "stats": '));
    expect(keysOf(stats, 'variants')).toEqual(order);
    expect(keysOf(text.slice(text.indexOf('\n  "suite": ')), 'variant_deltas')).toEqual(['lean', '2', '10']);
    expect([...stats.matchAll(/^ {8}"(base|lean|2|10)": \{/gm)].map((m) => m[1])).toEqual(order);
    // The Markdown variants table follows it too.
    const md = readFileSync(join(dir, 'out', 'report.md'), 'utf8');
    expect([...md.matchAll(/^\| (base|lean|2|10) \|/gm)].map((m) => m[1])).toEqual(order);
  });
});

describe('report.json stats of runs that made no choices', () => {
  it('leaves runs that ended with an error before the model answered out of tool selection, turns and tokens', async () => {
    // a: base passes; nomcp's MCP server cannot start (MCP_START_FAILED, no model call).
    // b: no script (SCRIPT_MISSING: one model call, failed). c: the first model call fails.
    const noScript = 'name: b\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nexpect: {terminal_tool: lookup}\n';
    const failing = noScript.replace('name: b', 'name: c').replace('expect:', 'model: {script: [{error: {message: overloaded, status: 529}}]}\nexpect:');
    const dir = tempDir({
      'agent.yaml': AGENT,
      'agentcheck.config.yaml': 'variants:\n  nomcp: {set: {agent: {mcps: [{name: m, command: [/nonexistent/server]}]}}}\n',
      'a.scenario.yaml': scenario('a', ['lookup'], '  terminal_tool: lookup\n'),
      'b.scenario.yaml': noScript,
      'c.scenario.yaml': failing,
    });
    // A run's report like the built CLI's above (run, exit 1): the CLI's entry in-process (runMain).
    const result = await runMain(['run', '.', '--repeat', '2', '--out', 'out', '--reporter', 'json,html'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    const errors = (variant: string) =>
      report.scenarios.filter((r) => r.variant === variant && r.status === 'error').map((r) => [r.name, r.error?.type, r.no_choices]);
    expect(errors('base')).toEqual([
      ['b', 'SCRIPT_MISSING', true],
      ['b', 'SCRIPT_MISSING', true],
      ['c', 'MODEL_REQUEST_REJECTED', true],
      ['c', 'MODEL_REQUEST_REJECTED', true],
    ]);
    expect(errors('nomcp').map(([, type, flag]) => [type, flag])).toEqual(Array(6).fill(['MCP_START_FAILED', true]));
    // A run that made choices carries no flag.
    expect(report.scenarios.filter((r) => r.status === 'pass').map((r) => r.no_choices)).toEqual([undefined, undefined]);

    const { base, nomcp } = report.stats!.variants;
    // Every run counts in the pass rates: the errors are non-passes.
    expect([base.runs, base.passed, nomcp.runs, nomcp.passed]).toEqual([6, 2, 6, 0]);
    // Only a's two base runs made choices: each called lookup, as expected (2 model calls each).
    expect(base.tool_selection).toMatchObject({ runs: 2, precision: 1, recall: 1, confusion: {} });
    expect(base.turns).toEqual({ n: 2, mean: 2, p50: 2, p95: 2 });
    expect(base.tokens.total.n).toBe(2);
    expect(base.duration_ms.n).toBe(6);
    // No nomcp run reached the model: nothing is scored (not a recall of 0 with every tool missed).
    expect(nomcp.tool_selection).toEqual({
      runs: 0,
      precision: null,
      recall: null,
      macro_precision: null,
      macro_recall: null,
      wrong_tool_calls: { total: 0, per_run: null },
      confusion: {},
    });
    expect(nomcp.turns.n).toBe(0);
    expect(nomcp.tokens.total.n).toBe(0);
    expect(nomcp.duration_ms.n).toBe(6);
    // report.html's heat map reads the same statistics: no run is said to have missed lookup, nor
    // to have missed nothing: nomcp has no scored runs.
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).not.toContain('missed lookup');
    expect(html).toContain('data-variant="nomcp" data-confusion="unscored">nomcp: no scored runs');
    expect(html).not.toContain('nomcp: no run missed an expected tool');
  });
});
