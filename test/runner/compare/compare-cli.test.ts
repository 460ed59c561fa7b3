import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_YAML, passingScenario, runCli } from '../../e2e/cli.js';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

type Result = Awaited<ReturnType<typeof runCli>> | Awaited<ReturnType<typeof runMain>>;

describe('agentcheck compare (built CLI) of one suite run twice, b calling lookup once more and c skipped in the head, and of that head as an interrupt leaves it', () => {
  let dir: string;
  /** Each comparison, run once for the tests that read it: `${base} ${head}` (--json after a space). */
  const compared = new Map<string, Result>();
  const compare = (...args: string[]) => compared.get(args.join(' '))!;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agentcheck-compare-'));
    writeFileSync(join(dir, 'agent.yaml'), AGENT_YAML);
    for (const name of ['a', 'b', 'c']) writeFileSync(join(dir, `${name}.scenario.yaml`), passingScenario(name));
    expect((await runCli(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
    // b calls lookup twice now; still passes, so only its trajectory changed. c is skipped.
    writeFileSync(
      join(dir, 'b.scenario.yaml'),
      passingScenario('b').replace('    - tool_calls: [{name: finish', '    - tool_calls: [{name: lookup, args: {id: "2"}}]\n    - tool_calls: [{name: finish'),
    );
    writeFileSync(join(dir, 'c.scenario.yaml'), `${passingScenario('c')}skip: flaky upstream\n`);
    // The head in-process (runMain): only its report is read, and the built CLI ran the base.
    expect((await runMain(['run', '.', '--out', 'head', '--reporter', 'json'], dir)).exitCode).toBe(0);
    // The head as an interrupt leaves it: the report marked interrupted, its unreached row (a) not_run.
    const head = JSON.parse(readFileSync(join(dir, 'head/report.json'), 'utf8'));
    expect(head.scenarios[0].id).toBe('a.scenario.yaml#a');
    head.interrupted = true;
    head.scenarios[0] = { ...head.scenarios[0], status: 'not_run', reason: 'not run: the suite was interrupted', checks: [], test_run: null };
    head.summary = { ...head.summary, passed: head.summary.passed - 1, not_run: 1 };
    writeFileSync(join(dir, 'head.json'), JSON.stringify(head));
    const pairs = [
      ['base/report.json', 'head/report.json'],
      ['base/report.json', 'head/report.json', '--json'],
      ['base/report.json', 'head.json'],
      ['base/report.json', 'head.json', '--json'],
      ['head.json', 'base/report.json'],
      ['head.json', 'head.json'],
    ];
    // A comparison is read-only: the built CLI compares the first pair (exit 0) and the third
    // (exit 1, incomplete), the others run the CLI's entry in-process (runMain).
    for (const [index, pair] of pairs.entries()) {
      compared.set(pair.join(' '), await (index === 0 || index === 2 ? runCli : runMain)(['compare', ...pair], dir));
    }
  });

  it('lists tool calls added, removed and reordered in text and --json', () => {
    const text = compare('base/report.json', 'head/report.json');
    expect(text.exitCode, text.all).toBe(0);
    expect(text.stdout).toContain('trajectory changes (1):\n  b.scenario.yaml#b [base]: +lookup x1\n');
    const json = JSON.parse(compare('base/report.json', 'head/report.json', '--json').stdout);
    expect(json.trajectory).toEqual([
      {
        key: 'b.scenario.yaml#b [base]',
        id: 'b.scenario.yaml#b',
        variant: 'base',
        added: [{ tool: 'lookup', count: 1 }],
        removed: [],
        reordered: false,
        base_order: ['lookup', 'finish'],
        head_order: ['lookup', 'finish'],
      },
    ]);
  });

  it('lists a scenario skipped in the head as skipped, not vanished, and back; skipped in both is unchanged', () => {
    const skipped = compare('base/report.json', 'head/report.json');
    expect(skipped.exitCode, skipped.all).toBe(0);
    expect(skipped.stdout).toContain('skipped in one report (1):\n  c.scenario.yaml#c [base]: pass -> skipped\n');
    expect(skipped.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 1 skipped, 2 unchanged');
    // And back: skipped in the base, run in the head, is no new scenario.
    const back = compare('head.json', 'base/report.json');
    expect(back.stdout).toContain('skipped in one report (1):\n  c.scenario.yaml#c [base]: skipped -> pass\n');
    expect(back.stdout).toContain('0 appeared');
    // Skipped in both: unchanged (b and c), so every pair is counted.
    const both = compare('head.json', 'head.json');
    expect(both.stdout).not.toContain('skipped in one report');
    expect(both.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 1 not run, 2 unchanged');
  });

  it('says a comparison with an interrupted run is incomplete and exits 1, though nothing regressed', () => {
    const result = compare('base/report.json', 'head.json');
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stderr).toContain(
      'agentcheck: head.json (head) was interrupted: its not_run rows are not results, so this comparison is incomplete (exit 1)',
    );
    // Its not_run row is listed as not run, not as vanished: the head holds it (and back).
    expect(result.stdout).toContain('not run (1):\n  a.scenario.yaml#a [base]: pass -> not_run\n');
    expect(result.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 1 skipped, 1 not run, 1 unchanged');
    const json = compare('base/report.json', 'head.json', '--json');
    expect(json.exitCode).toBe(1);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.interrupted).toEqual({ base: false, head: true });
    expect([parsed.vanished, parsed.not_run.map((row: { head: string }) => row.head), parsed.nothing_shared]).toEqual([[], ['not_run'], false]);
    const back = compare('head.json', 'base/report.json');
    expect(back.stdout).toContain('not run (1):\n  a.scenario.yaml#a [base]: not_run -> pass\n');
    expect(back.stdout).toContain('0 appeared');
    // Not run in both: still listed (and "their" for two interrupted reports).
    const both = compare('head.json', 'head.json');
    expect(both.stdout).toContain('not run (1):\n  a.scenario.yaml#a [base]: not_run -> not_run\n');
    expect(both.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 1 not run, 2 unchanged');
    expect(both.stderr).toContain('head.json (base) and head.json (head) were interrupted: their not_run rows are not results');
  });

  it('refuses a row given twice', async () => {
    // A row copied into the report would be pooled twice.
    const report = JSON.parse(readFileSync(join(dir, 'base/report.json'), 'utf8'));
    report.scenarios.push(report.scenarios[0]);
    report.summary.total += 1;
    report.summary.passed += 1;
    writeFileSync(join(dir, 'twice.json'), JSON.stringify(report, null, 2));
    // Refused on reading the report: in-process (runMain), as the built CLI refuses a null row in commands.test.ts.
    const twice = await runMain(['compare', 'base/report.json', 'twice.json'], dir);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/twice\.json:\d+:\d+ at scenarios\[3\]: a second row for "a\.scenario\.yaml#a" \[base\] repeat 0 \(also scenarios\[0\]\)/);
  });

  it('says a comparison with a merge missing shards is incomplete', async () => {
    // A merged head that lacks a shard: its scenarios are absent, not results.
    // The shard's run in-process (runMain), its merge on the built CLI, the comparison in-process.
    expect((await runMain(['run', '.', '--shard', '1/2', '--out', 's1', '--reporter', 'json'], dir)).exitCode).toBe(0);
    expect((await runCli(['merge', 's1/report.json', '--out', 'merged', '--reporter', 'md'], dir)).exitCode).toBe(1);
    const merged = await runMain(['compare', 'base/report.json', 'merged/report.json', '--json'], dir);
    expect(merged.exitCode, merged.all).toBe(1);
    expect(merged.stderr).toContain(
      'merged/report.json (head) is a merge missing shard 2: their scenarios are not results, so this comparison is incomplete (exit 1)',
    );
    expect(JSON.parse(merged.stdout).missing_shards).toEqual({ base: [], head: [2] });
  });
});

describe('agentcheck compare: names and reasons with control characters', () => {
  it('prints keys, trajectory changes and reasons without ANSI sequences, bidi overrides shown as <U+202E>', async () => {
    const scenario = (script: string, contains: string) => `name: "red \\e[31mname\\e[0m \\u202Egnp.exe"
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [${script}]}
expect: {checks: [{output: {contains: "${contains}"}}]}
`;
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'evil.scenario.yaml': scenario('{tool_calls: [{name: finish, args: {}}]}, {text: done}', 'done') });
    // The base in-process (runMain); the head (exit 1) and the text comparison on the built CLI.
    expect((await runMain(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
    // The head skips finish and answers with a screen clear and a bidi override: a regression and a trajectory change.
    writeFileSync(join(dir, 'evil.scenario.yaml'), scenario('{text: "\\e[2J\\e[31mred \\u202Eevil"}', 'done'));
    expect((await runCli(['run', '.', '--out', 'head', '--reporter', 'json'], dir)).exitCode).toBe(1);
    const text = await runCli(['compare', 'base/report.json', 'head/report.json'], dir);
    expect(text.exitCode, text.all).toBe(1);
    expect(text.stdout).toContain('regressed (1):\n  evil.scenario.yaml#red name <U+202E>gnp.exe [base]: pass -> fail\n');
    expect(text.stdout).toContain('<U+202E>evil');
    expect(text.stdout).toContain('trajectory changes (1):\n  evil.scenario.yaml#red name <U+202E>gnp.exe [base]: -finish x1\n');
    expect(text.stdout).not.toContain('\u001b');
    expect(text.stdout).not.toContain('\u202e');
    // --json keeps every string as it was.
    const json = JSON.parse((await runMain(['compare', 'base/report.json', 'head/report.json', '--json'], dir)).stdout);
    expect(json.regressed[0].key).toBe('evil.scenario.yaml#red \u001b[31mname\u001b[0m \u202egnp.exe [base]');
  });
});
