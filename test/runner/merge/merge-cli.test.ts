import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ScenarioRow } from '../../../src/runner/report/report.js';
import { AGENT_YAML, passingScenario, runCli } from '../../e2e/cli.js';

function readReport(path: string): Report {
  return JSON.parse(readFileSync(path, 'utf8')) as Report;
}

function indent(yaml: string): string {
  return `  - ${yaml.trimEnd().replace(/\n/g, '\n    ')}\n`;
}

function stuck(name: string, extra = ''): string {
  return `name: ${name}
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: lookup, args: {id: "2"}}]}, {text: "gave up"}]}
expect: {terminal_tool: finish}
${extra}`;
}

/** 12 scenarios in 4 files (8 passing, 2 failing, 1 expected failure, 1 single-scenario file), 2 variants, 2 repeats. */
function suiteFiles(): Record<string, string> {
  const list = (names: string[]) => `scenarios:\n${names.map((n) => indent(passingScenario(n))).join('')}`;
  return {
    'agent.yaml': AGENT_YAML,
    'agentcheck.config.yaml': 'variants:\n  lean: {set: {agent: {instructions: "Be brief."}}}\nrepeat: 2\n',
    'billing/pass-a.scenarios.yaml': list(['p1', 'p2', 'p3', 'p4']).replace(/agent: agent\.yaml/g, 'agent: ../agent.yaml'),
    'support/pass-b.scenarios.yaml': list(['p5', 'p6', 'p7', 'p8']).replace(/agent: agent\.yaml/g, 'agent: ../agent.yaml'),
    'single.scenario.yaml': passingScenario('p9'),
    'mixed.scenarios.yaml': `scenarios:\n${indent(stuck('f1'))}${indent(stuck('f2'))}${indent(stuck('x1', 'expect_failure: finish is skipped'))}`,
  };
}

/** What must be equal between a merged row and the unsharded run's row. */
function essence(row: ScenarioRow) {
  return {
    status: row.status,
    reason: row.reason,
    verdict: row.test_run?.verdict,
    verdict_reason: row.test_run?.verdict_reason,
    tools: row.test_run?.tools,
    checks: row.checks.map((c) => ({ id: c.id, status: c.status, reason: c.reason })),
    turns: row.turns,
    expect_failure: row.expect_failure,
    tags: row.tags,
  };
}

const key = (row: ScenarioRow) => `${row.id} [${row.variant}] #${row.repeat}`;

let dir: string;
const shardReports = () => [1, 2, 3, 4].map((i) => `s${i}/report.json`);

describe('agentcheck merge (through the built CLI)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    // One suite for all tests (tempDir() would remove it after the first test).
    dir = mkdtempSync(join(tmpdir(), 'agentcheck-merge-'));
    for (const [path, text] of Object.entries(suiteFiles())) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const runs = await Promise.all([
      runCli(['run', '--out', 'full', '--reporter', 'json'], dir),
      ...[1, 2, 3, 4].map((i) => runCli(['run', '--shard', `${i}/4`, '--out', `s${i}`, '--reporter', 'json'], dir)),
      runCli(['run', '--shard', '2/4', '--repeat', '1', '--out', 'other', '--reporter', 'json'], dir),
    ]);
    // The unsharded run has failing rows; a shard exits 0 or 1 depending on which rows it got.
    expect(runs[0].exitCode, runs[0].all).toBe(1);
    for (const run of runs) expect([0, 1], run.all).toContain(run.exitCode);
  });

  it('four shards merged equal one unsharded run, scenario for scenario', async () => {
    const result = await runCli(['merge', ...shardReports(), '--out', 'merged', '--reporter', 'table,md,junit'], dir);
    const full = readReport(join(dir, 'full/report.json'));
    expect(result.exitCode, result.all).toBe(1);
    const merged = readReport(join(dir, 'merged/report.json'));

    expect(full.scenarios).toHaveLength(12 * 2 * 2);
    expect(merged.scenarios.map(key).sort()).toEqual(full.scenarios.map(key).sort());
    const byKey = new Map(full.scenarios.map((row) => [key(row), row]));
    for (const row of merged.scenarios) expect(essence(row), key(row)).toEqual(essence(byKey.get(key(row))!));
    expect(merged.summary).toEqual(full.summary);
    expect(merged.summary).toMatchObject({ total: 48, passed: 40, failed: 8 });

    // Rows in (id, variant, repeat) order, whatever order the shards came in.
    const sorted = [...merged.scenarios].sort((a, b) =>
      a.id < b.id ? -1 : a.id > b.id ? 1 : a.variant < b.variant ? -1 : a.variant > b.variant ? 1 : a.repeat - b.repeat,
    );
    expect(merged.scenarios.map(key)).toEqual(sorted.map(key));

    // The suite is the unsharded one; statistics are recomputed over all rows.
    expect(merged.suite).toEqual({ ...full.suite, shard: null, concurrency: merged.suite.concurrency });
    expect(merged.suite.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const strip = (report: Report) => JSON.parse(JSON.stringify(report.stats, (k, v) => (k === 'duration_ms' ? undefined : v)));
    expect(strip(merged)).toEqual(strip(full));
    expect(merged.stats?.variants.base.runs).toBe(24);
    expect(merged.merged?.inputs.map((input) => input.shard?.index)).toEqual([1, 2, 3, 4]);
    expect(merged.merged?.missing_shards).toEqual([]);

    // md and junit as requested; spans of every shard concatenated.
    expect(readFileSync(join(dir, 'merged/report.md'), 'utf8')).toMatch(/^# agentcheck: FAILED/);
    expect(readFileSync(join(dir, 'merged/junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(48);
    const lines = (path: string) => readFileSync(join(dir, path), 'utf8').split('\n').filter(Boolean).length;
    expect(lines('merged/spans.jsonl')).toBe([1, 2, 3, 4].reduce((sum, i) => sum + lines(`s${i}/spans.jsonl`), 0));
    expect(result.stdout).toMatch(/48 runs \(12 scenarios x 2 variants x 2 repeats\): 40 passed .*8 failed/);
    // The last line names the files written, as run's does.
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Reports: merged/spans.jsonl, merged/report.json, merged/report.md, merged/junit.xml');
  });

  it('--quiet prints the failures and the summary, as run --quiet does', async () => {
    const result = await runCli(['merge', ...shardReports(), '--out', 'quiet', '--quiet'], dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stdout).not.toContain('│');
    expect(result.stdout).toMatch(/48 runs \(12 scenarios x 2 variants x 2 repeats\): 40 passed .*8 failed/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('Reports: quiet/spans.jsonl, quiet/report.json');
  });

  it("says which shard's spans.jsonl is missing, and merges the spans that are there", async () => {
    mkdirSync(join(dir, 'nospans'), { recursive: true });
    copyFileSync(join(dir, 's2/report.json'), join(dir, 'nospans/report.json'));
    const inputs = shardReports().map((file) => file.replace('s2/', 'nospans/'));
    const result = await runCli(['merge', ...inputs, '--out', 'partly', '--reporter', 'json'], dir);
    expect(result.exitCode).toBe(1); // the merged rows fail, as in the whole merge
    expect(result.stderr).toContain('agentcheck: no spans.jsonl beside nospans/report.json: the merged spans.jsonl lacks the spans of their rows');
    const lines = (path: string) => readFileSync(join(dir, path), 'utf8').split('\n').filter(Boolean).length;
    expect(lines('partly/spans.jsonl')).toBe([1, 3, 4].reduce((sum, i) => sum + lines(`s${i}/spans.jsonl`), 0));
  });

  it('joins spans line by line: a file without a final newline glues nothing, and a line that is no span is left out and named', async () => {
    for (const i of [1, 2, 3, 4]) {
      mkdirSync(join(dir, `torn${i}`), { recursive: true });
      copyFileSync(join(dir, `s${i}/report.json`), join(dir, `torn${i}/report.json`));
      copyFileSync(join(dir, `s${i}/spans.jsonl`), join(dir, `torn${i}/spans.jsonl`));
    }
    const first = readFileSync(join(dir, 'torn1/spans.jsonl'), 'utf8');
    writeFileSync(join(dir, 'torn1/spans.jsonl'), first.trimEnd());
    writeFileSync(join(dir, 'torn2/spans.jsonl'), `${readFileSync(join(dir, 'torn2/spans.jsonl'), 'utf8')}garbage\n`);
    const garbageLine = readFileSync(join(dir, 'torn2/spans.jsonl'), 'utf8').split('\n').length - 1;
    const result = await runCli(['merge', ...[1, 2, 3, 4].map((i) => `torn${i}/report.json`), '--out', 'torn-merged', '--reporter', 'json'], dir);
    expect(result.stderr).toContain(`agentcheck: left out 1 line(s) of the shards' spans.jsonl that are not span records: torn2/spans.jsonl:${garbageLine}`);
    const lines = (path: string) => readFileSync(join(dir, path), 'utf8').split('\n').filter(Boolean).length;
    expect(lines('torn-merged/spans.jsonl')).toBe([1, 2, 3, 4].reduce((sum, i) => sum + lines(`s${i}/spans.jsonl`), 0));
    const query = await runCli(['spans', 'query', 'torn-merged/spans.jsonl', '--limit', '0'], dir);
    expect(query.exitCode, query.all).toBe(0);
  });

  it('without the table reporter still prints the failures and the summary line, as run does', async () => {
    const result = await runCli(['merge', ...shardReports(), '--out', 'mdonly', '--reporter', 'md'], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/48 runs \(12 scenarios x 2 variants x 2 repeats\): 40 passed .*8 failed/);
    expect(result.stdout).not.toContain('│');
  });

  it('adds up a repeated --reporter, as run does, instead of keeping only the last', async () => {
    const result = await runCli(['merge', ...shardReports(), '--out', 'twice-reporter', '--reporter', 'md', '--reporter', 'junit'], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Reports: twice-reporter/spans.jsonl, twice-reporter/report.json, twice-reporter/report.md, twice-reporter/junit.xml',
    );
  });

  it('refuses --out the folder of an input shard, which the merge would overwrite', async () => {
    const result = await runCli(['merge', ...shardReports(), '--out', 's1', '--reporter', 'json'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--out: s1 holds the input s1/report.json: the merged report.json and spans.jsonl would replace it; give another folder');
    expect(readReport(join(dir, 's1/report.json')).suite.shard).toEqual({ index: 1, total: 4 });
    // The same folder reached through a symbolic link, on the --out side or the input's.
    const spans = readFileSync(join(dir, 's1/spans.jsonl'), 'utf8');
    symlinkSync(join(dir, 's1'), join(dir, 'out-link'));
    symlinkSync(dir, join(dir, 'in-link'));
    // An input given as a link to a shard's report file, --out that shard's folder.
    mkdirSync(join(dir, 'file-links'), { recursive: true });
    symlinkSync(join(dir, 's1/report.json'), join(dir, 'file-links/r1.json'));
    for (const args of [
      [...shardReports(), '--out', 'out-link'],
      ['in-link/s1/report.json', ...shardReports().slice(1), '--out', 's1'],
      ['file-links/r1.json', ...shardReports().slice(1), '--out', 's1'],
    ]) {
      const linked = await runCli(['merge', ...args, '--reporter', 'json'], dir);
      expect(linked.exitCode, args.join(' ')).toBe(2);
      expect(linked.stderr).toMatch(/--out: \S+ holds the input \S+: the merged report\.json and spans\.jsonl would replace it/);
    }
    expect(readReport(join(dir, 's1/report.json')).suite.shard).toEqual({ index: 1, total: 4 });
    expect(readFileSync(join(dir, 's1/spans.jsonl'), 'utf8')).toBe(spans);
  });

  it("refuses the same report path given twice as the command line's mistake", async () => {
    symlinkSync(dir, join(dir, 'in-link-2'));
    const result = await runCli(['merge', 's1/report.json', './s1/report.json', '--out', 'twice', '--reporter', 'json'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('./s1/report.json: is given twice (also as s1/report.json); give each report once');
    const linked = await runCli(['merge', 's1/report.json', 'in-link-2/s1/report.json', '--out', 'twice', '--reporter', 'json'], dir);
    expect(linked.stderr).toContain('in-link-2/s1/report.json: is given twice (also as s1/report.json); give each report once');
  });

  it('merges in any input order to the same rows', async () => {
    const result = await runCli(['merge', ...shardReports().reverse(), '--out', 'reversed', '--reporter', 'json'], dir);
    expect(result.exitCode).toBe(1);
    const a = readReport(join(dir, 'reversed/report.json')).scenarios.map(key);
    const b = readReport(join(dir, 'merged/report.json')).scenarios.map(key);
    expect(a).toEqual(b);
  });

  it('refuses reports of different suites (exit 2, naming what differs)', async () => {
    const result = await runCli(['merge', 's1/report.json', 'other/report.json', '--out', 'refused'], dir);
    expect(result.exitCode).toBe(2);
    // Every pair reads "this file vs the other": other ran --repeat 1, s1 the config's 2.
    const fingerprint = (file: string) => readReport(join(dir, file)).suite.fingerprint;
    expect(result.stderr).toContain(
      `other/report.json: not the same suite as s1/report.json (this file vs s1/report.json: suite.fingerprint ${fingerprint('other/report.json')} vs ${fingerprint('s1/report.json')}; repeat: 1 vs 2)`,
    );
    expect(existsSync(join(dir, 'refused/report.json'))).toBe(false);
  });

  it('refuses shards of a suite whose scenarios differ, though run with the same flags', async () => {
    const changed = join(dir, 'changed-suite');
    for (const [path, text] of Object.entries(suiteFiles())) {
      mkdirSync(dirname(join(changed, path)), { recursive: true });
      writeFileSync(join(changed, path), path === 'single.scenario.yaml' ? text.replace('name: p9', 'name: p9 renamed') : text);
    }
    expect([0, 1]).toContain((await runCli(['run', '--shard', '2/4', '--out', '../changed-s2', '--reporter', 'json'], changed)).exitCode);
    const result = await runCli(['merge', 's1/report.json', 'changed-s2/report.json', '--out', 'refused'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toMatch(/changed-s2\/report\.json: not the same suite as s1\/report\.json .*the scenarios differ \(content hash/);
    expect(existsSync(join(dir, 'refused/report.json'))).toBe(false);
  });

  it('refuses shards whose same-named variant changed something else, naming the variant', async () => {
    const edited = join(dir, 'edited-suite');
    for (const [path, text] of Object.entries(suiteFiles())) {
      mkdirSync(dirname(join(edited, path)), { recursive: true });
      writeFileSync(join(edited, path), path === 'agentcheck.config.yaml' ? text.replace('Be brief.', 'Be terse.') : text);
    }
    expect([0, 1]).toContain((await runCli(['run', '--shard', '2/4', '--out', '../edited-s2', '--reporter', 'json'], edited)).exitCode);
    const result = await runCli(['merge', 's1/report.json', 'edited-s2/report.json', '--out', 'refused'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toContain('edited-s2/report.json: not the same suite as s1/report.json (this file vs s1/report.json: suite.fingerprint');
    expect(result.stderr).toContain('variant "lean" changes: {"set":{"agent":{"instructions":"Be terse."}}} vs {"set":{"agent":{"instructions":"Be brief."}}}');
    expect(existsSync(join(dir, 'refused/report.json'))).toBe(false);
  });

  it('refuses shards whose same-named variant wrote one place in another order, and merges those in the same order', async () => {
    // The later entry's value wins (docs/formats.md, Delta): reordered, the variant runs another build.
    const entries = ['agent: {name: Lean bot}', '"agent.name": Leaner bot'];
    const config = (order: string[]) => `variants:\n  lean:\n    set:\n${order.map((entry) => `      ${entry}\n`).join('')}repeat: 2\n`;
    const suite = (folder: string, order: string[]) => {
      for (const [path, text] of Object.entries(suiteFiles())) {
        mkdirSync(dirname(join(dir, folder, path)), { recursive: true });
        writeFileSync(join(dir, folder, path), path === 'agentcheck.config.yaml' ? config(order) : text);
      }
    };
    suite('ordered-suite', entries);
    suite('reordered-suite', [...entries].reverse());
    const runs = await Promise.all([
      runCli(['run', '--shard', '1/4', '--out', '../ordered-s1', '--reporter', 'json'], join(dir, 'ordered-suite')),
      runCli(['run', '--shard', '2/4', '--out', '../ordered-s2', '--reporter', 'json'], join(dir, 'ordered-suite')),
      runCli(['run', '--shard', '2/4', '--out', '../reordered-s2', '--reporter', 'json'], join(dir, 'reordered-suite')),
    ]);
    for (const run of runs) expect([0, 1], run.all).toContain(run.exitCode);

    const refused = await runCli(['merge', 'ordered-s1/report.json', 'reordered-s2/report.json', '--out', 'reordered-refused'], dir);
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.stderr).toContain('reordered-s2/report.json: not the same suite as ordered-s1/report.json');
    expect(refused.stderr).toContain(
      'variant "lean" changes: {"set":[["agent.name","Leaner bot"],["agent",{"name":"Lean bot"}]]} vs {"set":[["agent",{"name":"Lean bot"}],["agent.name","Leaner bot"]]}',
    );
    expect(existsSync(join(dir, 'reordered-refused/report.json'))).toBe(false);

    // Same order: one suite, merged (exit 1 only for the shards 3 and 4 not given).
    const merged = await runCli(['merge', 'ordered-s1/report.json', 'ordered-s2/report.json', '--out', 'ordered-merged', '--reporter', 'json'], dir);
    expect(merged.exitCode, merged.all).toBe(1);
    expect(merged.stderr).not.toContain('not the same suite');
    expect(existsSync(join(dir, 'ordered-merged/report.json'))).toBe(true);
  });

  it('merges shards whose same-named variant lists its removes in another order, which removes the same (docs/verdicts.md, resolved)', async () => {
    // Each remove names a place in the build `set` left, so their order does not change the build.
    const removes = ['agent.tools.0.read_only', 'agent.tools.0.parameters.properties'];
    const config = (order: string[]) => `variants:\n  lean: {remove: [${order.join(', ')}]}\nrepeat: 2\n`;
    for (const [folder, order] of [
      ['removes-suite', removes],
      ['reversed-removes-suite', [...removes].reverse()],
    ] as const) {
      for (const [path, text] of Object.entries(suiteFiles())) {
        mkdirSync(dirname(join(dir, folder, path)), { recursive: true });
        writeFileSync(join(dir, folder, path), path === 'agentcheck.config.yaml' ? config(order) : text);
      }
    }
    const runs = await Promise.all([
      runCli(['run', '--shard', '1/4', '--out', '../removes-s1', '--reporter', 'json'], join(dir, 'removes-suite')),
      runCli(['run', '--shard', '2/4', '--out', '../reversed-removes-s2', '--reporter', 'json'], join(dir, 'reversed-removes-suite')),
    ]);
    for (const run of runs) expect([0, 1], run.all).toContain(run.exitCode);
    const merged = await runCli(['merge', 'removes-s1/report.json', 'reversed-removes-s2/report.json', '--out', 'removes-merged', '--reporter', 'json'], dir);
    // Exit 1 only for the shards 3 and 4 not given.
    expect(merged.exitCode, merged.all).toBe(1);
    expect(merged.stderr).not.toContain('not the same suite');
    expect(merged.stderr).toContain('merged 2 of 4 shards');
    expect(readReport(join(dir, 'removes-merged/report.json')).scenarios.some((row) => row.variant === 'lean')).toBe(true);
  });

  it('refuses the same shard twice, overlapping rows, and mixed shard counts', async () => {
    mkdirSync(join(dir, 'copy'), { recursive: true });
    copyFileSync(join(dir, 'full/report.json'), join(dir, 'copy/report.json'));
    // A copy of a shard's report (the same path twice is refused earlier, as the command line's mistake).
    mkdirSync(join(dir, 's1copy'), { recursive: true });
    copyFileSync(join(dir, 's1/report.json'), join(dir, 's1copy/report.json'));
    const [twice, overlap, mixed] = await Promise.all([
      runCli(['merge', 's1/report.json', 's2/report.json', 's1copy/report.json', '--out', 'refused'], dir),
      runCli(['merge', 'full/report.json', 'copy/report.json', '--out', 'refused'], dir),
      runCli(['merge', 'full/report.json', 's1/report.json', '--out', 'refused'], dir),
    ]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/s1copy\/report\.json: overlapping shards: shard 1\/4 is also s1\/report\.json/);
    expect(overlap.exitCode).toBe(2);
    expect(overlap.stderr).toMatch(/copy\/report\.json: overlapping reports: ".*" \[base\] repeat 0 is also in full\/report\.json/);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toContain('split differently (full/report.json: unsharded, s1/report.json: shard 1/4)');
    expect(existsSync(join(dir, 'refused/report.json'))).toBe(false);
  });

  it('writes the report but exits 1 when a shard is missing, and 2 for a file that is not a report', async () => {
    const partial = await runCli(['merge', 's1/report.json', 's2/report.json', 's3/report.json', '--out', 'partial', '--reporter', 'table,md,html'], dir);
    expect(partial.exitCode).toBe(1);
    expect(partial.stderr).toContain('merged 3 of 4 shards; missing shard 4');
    expect(readReport(join(dir, 'partial/report.json')).merged?.missing_shards).toEqual([4]);
    // Every readable report says shards are missing (the suite also fails: FAILED comes first).
    expect(partial.stdout).toMatch(/\(\d+\.\d s, shard 4 missing\)/);
    const md = readFileSync(join(dir, 'partial/report.md'), 'utf8');
    expect(md).toContain('> Merged without shard 4: their scenarios are not in this report.');
    expect(readFileSync(join(dir, 'partial/report.html'), 'utf8')).toContain('shard 4 missing');
    // junit.xml and the GitHub annotations fail too: an errored testcase and an agentcheck annotation.
    const onGithub = await runCli(['merge', 's1/report.json', 's2/report.json', 's3/report.json', '--out', 'partial-gh', '--reporter', 'junit'], dir, {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: join(dir, 'partial-gh-summary.md'),
    });
    expect(onGithub.exitCode).toBe(1);
    const junit = readFileSync(join(dir, 'partial-gh/junit.xml'), 'utf8');
    expect(junit).toContain(
      '<testcase name="missing shards" classname="agentcheck" time="0.000">\n      <error message="Merged 3 of 4 shards; missing shard 4 (their scenarios are not in the report)" type="missing_shards">',
    );
    expect(junit).toMatch(/<testsuite name="agentcheck" tests="1" failures="0" errors="1" /);
    expect(onGithub.stdout).toContain('::error title=agentcheck::Merged 3 of 4 shards; missing shard 4 (their scenarios are not in the report)\n');

    writeFileSync(join(dir, 'bad.json'), '{"schema": "something/1"}');
    const bad = await runCli(['merge', 'bad.json', '--out', 'refused'], dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad.json: expected "schema": "agentcheck.report/1"');
    const missing = await runCli(['merge', 'nope/report.json', '--out', 'refused'], dir);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope/report.json: report not found');
  });
});

describe('sharding a suite smaller than the shard count', () => {
  it('writes an empty report for an empty shard, and the merge is whole', async () => {
    const small = mkdtempSync(join(tmpdir(), 'agentcheck-merge-small-'));
    try {
      writeFileSync(join(small, 'agent.yaml'), AGENT_YAML);
      writeFileSync(join(small, 'a.scenario.yaml'), passingScenario('one'));
      writeFileSync(join(small, 'b.scenario.yaml'), passingScenario('two'));
      const shards = await Promise.all([1, 2, 3].map((i) => runCli(['run', '.', '--shard', `${i}/3`, '--out', `s${i}`, '--reporter', 'json'], small)));
      expect(shards.map((r) => r.exitCode)).toEqual([0, 0, 0]);
      expect(shards[2].stderr).toContain('shard 3/3 has no scenarios; writing an empty report');
      expect(readReport(join(small, 's3/report.json')).scenarios).toEqual([]);
      const merged = await runCli(['merge', 's1/report.json', 's2/report.json', 's3/report.json', '--out', 'merged', '--reporter', 'json'], small);
      expect(merged.exitCode, merged.all).toBe(0);
      expect(readReport(join(small, 'merged/report.json')).scenarios.map((r) => r.name)).toEqual(['one', 'two']);
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  });
});
