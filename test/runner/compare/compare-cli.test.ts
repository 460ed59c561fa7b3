import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_YAML, passingScenario, runCli } from '../../e2e/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('agentcheck compare: trajectory changes (built CLI)', () => {
  it('lists tool calls added, removed and reordered in text and --json', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 'b.scenario.yaml': passingScenario('b') });
    expect((await runCli(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
    // b calls lookup twice now; still passes, so only its trajectory changed.
    writeFileSync(
      join(dir, 'b.scenario.yaml'),
      passingScenario('b').replace('    - tool_calls: [{name: finish', '    - tool_calls: [{name: lookup, args: {id: "2"}}]\n    - tool_calls: [{name: finish'),
    );
    expect((await runCli(['run', '.', '--out', 'head', '--reporter', 'json'], dir)).exitCode).toBe(0);

    const text = await runCli(['compare', 'base/report.json', 'head/report.json'], dir);
    expect(text.exitCode, text.all).toBe(0);
    expect(text.stdout).toContain('trajectory changes (1):\n  b.scenario.yaml#b [base]: +lookup x1\n');
    expect(text.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 2 unchanged');

    const json = JSON.parse((await runCli(['compare', 'base/report.json', 'head/report.json', '--json'], dir)).stdout);
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
    expect((await runCli(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
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
    const json = JSON.parse((await runCli(['compare', 'base/report.json', 'head/report.json', '--json'], dir)).stdout);
    expect(json.regressed[0].key).toBe('evil.scenario.yaml#red \u001b[31mname\u001b[0m \u202egnp.exe [base]');
  });
});

describe('agentcheck compare: an interrupted run', () => {
  it('says the comparison is incomplete and exits 1, though nothing regressed', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    expect((await runCli(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
    // The head as an interrupt leaves it: the report marked interrupted, its unreached row not_run.
    const head = JSON.parse(readFileSync(join(dir, 'base/report.json'), 'utf8'));
    head.interrupted = true;
    head.scenarios[0] = { ...head.scenarios[0], status: 'not_run', reason: 'not run: the suite was interrupted', checks: [], test_run: null };
    head.summary = { ...head.summary, passed: 0, not_run: 1 };
    writeFileSync(join(dir, 'head.json'), JSON.stringify(head));
    const result = await runCli(['compare', 'base/report.json', 'head.json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stderr).toContain(
      'agentcheck: head.json (head) was interrupted: its not_run rows are not results, so this comparison is incomplete (exit 1)',
    );
    // Its not_run row is listed as not run, not as vanished: the head holds it (and back).
    expect(result.stdout).toContain('not run (1):\n  a.scenario.yaml#a [base]: pass -> not_run\n');
    expect(result.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 1 not run, 0 unchanged');
    const json = await runCli(['compare', 'base/report.json', 'head.json', '--json'], dir);
    expect(json.exitCode).toBe(1);
    const compared = JSON.parse(json.stdout);
    expect(compared.interrupted).toEqual({ base: false, head: true });
    expect([compared.vanished, compared.not_run.map((row: { head: string }) => row.head), compared.nothing_shared]).toEqual([[], ['not_run'], false]);
    const back = await runCli(['compare', 'head.json', 'base/report.json'], dir);
    expect(back.stdout).toContain('not run (1):\n  a.scenario.yaml#a [base]: not_run -> pass\n');
    expect(back.stdout).toContain('0 appeared');
    // Not run in both: still listed (and "their" for two interrupted reports).
    const both = await runCli(['compare', 'head.json', 'head.json'], dir);
    expect(both.stdout).toContain('not run (1):\n  a.scenario.yaml#a [base]: not_run -> not_run\n');
    expect(both.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 1 not run, 0 unchanged');
    expect(both.stderr).toContain('head.json (base) and head.json (head) were interrupted: their not_run rows are not results');
  });
});

describe('agentcheck compare: skipped rows, merges missing shards and duplicated rows', () => {
  it('lists a scenario skipped in the head as skipped, not vanished; refuses a row given twice; a merge missing shards is incomplete', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 'b.scenario.yaml': passingScenario('b') });
    expect((await runCli(['run', '.', '--out', 'base', '--reporter', 'json'], dir)).exitCode).toBe(0);
    writeFileSync(join(dir, 'b.scenario.yaml'), `${passingScenario('b')}skip: flaky upstream\n`);
    expect((await runCli(['run', '.', '--out', 'head', '--reporter', 'json'], dir)).exitCode).toBe(0);
    const skipped = await runCli(['compare', 'base/report.json', 'head/report.json'], dir);
    expect(skipped.exitCode, skipped.all).toBe(0);
    expect(skipped.stdout).toContain('skipped in one report (1):\n  b.scenario.yaml#b [base]: pass -> skipped\n');
    // And back: skipped in the base, run in the head, is no new scenario.
    const back = await runCli(['compare', 'head/report.json', 'base/report.json'], dir);
    expect(back.stdout).toContain('skipped in one report (1):\n  b.scenario.yaml#b [base]: skipped -> pass\n');
    expect(back.stdout).toContain('0 appeared');
    expect(skipped.stdout).toContain('0 regressed, 0 improved, 0 appeared, 0 vanished, 1 skipped, 1 unchanged');
    // Skipped in both: unchanged, so every pair is counted.
    expect((await runCli(['compare', 'head/report.json', 'head/report.json'], dir)).stdout).toContain(
      '0 regressed, 0 improved, 0 appeared, 0 vanished, 2 unchanged',
    );

    // A row copied into the report would be pooled twice.
    const report = JSON.parse(readFileSync(join(dir, 'base/report.json'), 'utf8'));
    report.scenarios.push(report.scenarios[0]);
    report.summary.total += 1;
    report.summary.passed += 1;
    writeFileSync(join(dir, 'twice.json'), JSON.stringify(report, null, 2));
    const twice = await runCli(['compare', 'base/report.json', 'twice.json'], dir);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/twice\.json:\d+:\d+ at scenarios\[2\]: a second row for "a\.scenario\.yaml#a" \[base\] repeat 0 \(also scenarios\[0\]\)/);

    // A merged head that lacks a shard: its scenarios are absent, not results.
    for (const shard of ['1/2', '2/2'])
      expect((await runCli(['run', '.', '--shard', shard, '--out', `s${shard[0]}`, '--reporter', 'json'], dir)).exitCode).toBe(0);
    expect((await runCli(['merge', 's1/report.json', '--out', 'merged', '--reporter', 'md'], dir)).exitCode).toBe(1);
    const merged = await runCli(['compare', 'base/report.json', 'merged/report.json', '--json'], dir);
    expect(merged.exitCode, merged.all).toBe(1);
    expect(merged.stderr).toContain(
      'merged/report.json (head) is a merge missing shard 2: their scenarios are not results, so this comparison is incomplete (exit 1)',
    );
    expect(JSON.parse(merged.stdout).missing_shards).toEqual({ base: [], head: [2] });
  });
});
