import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ScenarioRow } from '../../../src/runner/report/report.js';
import { AGENT_YAML, passingScenario, runCli } from '../../e2e/cli.js';
import { runMain, type MainResult } from '../../helpers/run-main.js';
import { runMainFull } from '../../helpers/run-main-full.js';

type Result = Awaited<ReturnType<typeof runCli>>;

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

/** The suite's variant sets one place twice (the later entry wins) and removes two, so the tests below can reorder either. */
const SETS = ['agent: {name: Lean bot}', '"agent.name": Leaner bot'];
const REMOVES = ['agent.tools.0.read_only', 'agent.tools.0.parameters.properties'];
function suiteConfig(sets = SETS, removes = REMOVES): string {
  return `variants:\n  lean:\n    set:\n${sets.map((entry) => `      ${entry}\n`).join('')}    remove: [${removes.join(', ')}]\nrepeat: 2\n`;
}

/** 12 scenarios in 4 files (8 passing, 2 failing, 1 expected failure, 1 single-scenario file), 2 variants, 2 repeats. */
function suiteFiles(config = suiteConfig()): Record<string, string> {
  const list = (names: string[]) => `scenarios:\n${names.map((n) => indent(passingScenario(n))).join('')}`;
  return {
    'agent.yaml': AGENT_YAML,
    'agentcheck.config.yaml': config,
    'billing/pass-a.scenarios.yaml': list(['p1', 'p2', 'p3', 'p4']).replace(/agent: agent\.yaml/g, 'agent: ../agent.yaml'),
    'support/pass-b.scenarios.yaml': list(['p5', 'p6', 'p7', 'p8']).replace(/agent: agent\.yaml/g, 'agent: ../agent.yaml'),
    'single.scenario.yaml': passingScenario('p9'),
    'mixed.scenarios.yaml': `scenarios:\n${indent(stuck('f1'))}${indent(stuck('f2'))}${indent(stuck('x1', 'expect_failure: finish is skipped'))}`,
  };
}

function writeSuite(folder: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
}

/**
 * Runs shard 2/3 of `files` (with `flags`) in DIR/folder, into DIR/out, for a merge with this
 * suite's shard 1: in-process (runMain), as only its report is read; the shards of this suite are
 * run by the built CLI.
 */
async function runOtherSuiteShard(folder: string, out: string, files: Record<string, string>, flags: string[] = []): Promise<void> {
  writeSuite(join(dir, folder), files);
  const run = await runMain(['run', '--shard', '2/3', ...flags, '--out', `../${out}`, '--reporter', 'json'], join(dir, folder));
  expect([0, 1], run.all).toContain(run.exitCode);
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
const SUMMARY = /48 runs \(12 scenarios x 2 variants x 2 repeats\): 40 passed .*8 failed/;

let dir: string;
/** `merge --quiet` of the three shards, given in reverse order, into merged/ (table, md, junit): run once for the tests that read it. */
let whole: Result;
const shardReports = () => [1, 2, 3].map((i) => `s${i}/report.json`);
const lines = (path: string) => readFileSync(join(dir, path), 'utf8').split('\n').filter(Boolean).length;

// Refusals (exit 2, before the --out folder is made) run the CLI's entry in-process (runMain) but
// one, a file that is no report, which the built CLI refuses. Merges whose report is all that is
// read, and the runs of other suites' shards, run in-process too; so do shards 2 and 3 of this
// suite and the merges after the whole one (runMainFull): the built CLI runs the unsharded suite
// and shard 1 (run exit 1 and 0 or 1), the whole merge (exit 1), the file that is no report
// (exit 2), and the small suite's empty shard and whole merge (exit 0).
describe('agentcheck merge (through the built CLI)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    // One suite for all tests (tempDir() would remove it after the first test).
    dir = mkdtempSync(join(tmpdir(), 'agentcheck-merge-'));
    writeSuite(dir, suiteFiles());
    // Shards 2 and 3 in-process first, one after the other: runMainFull checks the process is left
    // as it was, which child processes running beside it would change.
    const inProcess = [];
    for (const i of [2, 3]) inProcess.push(await runMainFull(['run', '--shard', `${i}/3`, '--out', `s${i}`, '--reporter', 'json'], dir));
    const runs = [
      ...(await Promise.all([
        runCli(['run', '--out', 'full', '--reporter', 'json'], dir),
        runCli(['run', '--shard', '1/3', '--out', 's1', '--reporter', 'json'], dir),
      ])),
      ...inProcess,
    ];
    // The unsharded run has failing rows; a shard exits 0 or 1 depending on which rows it got.
    expect(runs[0].exitCode, runs[0].all).toBe(1);
    for (const run of runs) expect([0, 1], run.all).toContain(run.exitCode);
    whole = await runCli(['merge', ...shardReports().reverse(), '--out', 'merged', '--reporter', 'table,md,junit', '--quiet'], dir);
  });

  it('three shards, in any input order, merged equal one unsharded run, scenario for scenario', () => {
    const full = readReport(join(dir, 'full/report.json'));
    expect(whole.exitCode, whole.all).toBe(1);
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
    // The inputs as given.
    expect(merged.merged?.inputs.map((input) => input.shard?.index)).toEqual([3, 2, 1]);
    expect(merged.merged?.missing_shards).toEqual([]);

    // md and junit as requested; spans of every shard concatenated.
    expect(readFileSync(join(dir, 'merged/report.md'), 'utf8')).toMatch(/^# agentcheck: FAILED/);
    expect(readFileSync(join(dir, 'merged/junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(48);
    expect(lines('merged/spans.jsonl')).toBe([1, 2, 3].reduce((sum, i) => sum + lines(`s${i}/spans.jsonl`), 0));
    expect(whole.stdout).toMatch(SUMMARY);
    // The last line names the files written, as run's does.
    expect(whole.stdout.trimEnd().split('\n').at(-1)).toBe('Reports: merged/spans.jsonl, merged/report.json, merged/report.md, merged/junit.xml');
  });

  it('--quiet prints the failures and the summary, as run --quiet does', () => {
    expect(whole.stdout).not.toContain('│');
    expect(whole.stdout).toMatch(SUMMARY);
  });

  describe('a merge --reporter md --reporter junit of shards whose spans.jsonl is missing, lacks its final newline or holds a line that is no span', () => {
    let result: MainResult;
    let garbageLine: number;
    beforeAll(async () => {
      for (const i of [1, 2, 3]) {
        mkdirSync(join(dir, `torn${i}`), { recursive: true });
        copyFileSync(join(dir, `s${i}/report.json`), join(dir, `torn${i}/report.json`));
      }
      // torn1 without its final newline, torn2 with a line of garbage, torn3 without spans.jsonl.
      writeFileSync(join(dir, 'torn1/spans.jsonl'), readFileSync(join(dir, 's1/spans.jsonl'), 'utf8').trimEnd());
      writeFileSync(join(dir, 'torn2/spans.jsonl'), `${readFileSync(join(dir, 's2/spans.jsonl'), 'utf8')}garbage\n`);
      garbageLine = readFileSync(join(dir, 'torn2/spans.jsonl'), 'utf8').split('\n').length - 1;
      const inputs = [1, 2, 3].map((i) => `torn${i}/report.json`);
      result = await runMainFull(['merge', ...inputs, '--out', 'torn-merged', '--reporter', 'md', '--reporter', 'junit'], dir);
    });

    it('without the table reporter still prints the failures and the summary line, as run does', () => {
      expect(result.exitCode, result.all).toBe(1); // the merged rows fail, as in the whole merge
      expect(result.stdout).toMatch(SUMMARY);
      expect(result.stdout).not.toContain('│');
    });

    it('adds up a repeated --reporter, as run does, instead of keeping only the last', () => {
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
        'Reports: torn-merged/spans.jsonl, torn-merged/report.json, torn-merged/report.md, torn-merged/junit.xml',
      );
    });

    it('merges in any input order to the same rows: these shards in order, the whole merge reversed', () => {
      const a = readReport(join(dir, 'torn-merged/report.json')).scenarios.map(key);
      const b = readReport(join(dir, 'merged/report.json')).scenarios.map(key);
      expect(a).toEqual(b);
    });

    it("says which shard's spans.jsonl is missing, and names the line that is no span", () => {
      expect(result.stderr).toContain('agentcheck: no spans.jsonl beside torn3/report.json: the merged spans.jsonl lacks the spans of their rows');
      expect(result.stderr).toContain(`agentcheck: left out 1 line(s) of the shards' spans.jsonl that are not span records: torn2/spans.jsonl:${garbageLine}`);
    });

    it('joins the spans that are there line by line: a file without a final newline glues nothing', async () => {
      expect(lines('torn-merged/spans.jsonl')).toBe(lines('s1/spans.jsonl') + lines('s2/spans.jsonl'));
      const query = await runCli(['spans', 'query', 'torn-merged/spans.jsonl', '--limit', '0'], dir);
      expect(query.exitCode, query.all).toBe(0);
    });
  });

  it('refuses --out the folder of an input shard, which the merge would overwrite', async () => {
    const result = await runMain(['merge', ...shardReports(), '--out', 's1', '--reporter', 'json'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--out: s1 holds the input s1/report.json: the merged report.json and spans.jsonl would replace it; give another folder');
    expect(readReport(join(dir, 's1/report.json')).suite.shard).toEqual({ index: 1, total: 3 });
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
      const linked = await runMain(['merge', ...args, '--reporter', 'json'], dir);
      expect(linked.exitCode, args.join(' ')).toBe(2);
      expect(linked.stderr).toMatch(/--out: \S+ holds the input \S+: the merged report\.json and spans\.jsonl would replace it/);
    }
    expect(readReport(join(dir, 's1/report.json')).suite.shard).toEqual({ index: 1, total: 3 });
    expect(readFileSync(join(dir, 's1/spans.jsonl'), 'utf8')).toBe(spans);
  });

  it('refuses, before merging, an --out folder that is there but takes no files (exit 2), as run does', async () => {
    const result = await runMain(['merge', ...shardReports(), '--out', '/proc/self', '--reporter', 'json', '--quiet'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toMatch(
      /^agentcheck: invalid input: --out \/proc\/self: cannot create files in \/proc\/self: E[A-Z]+; expected a folder agentcheck may create and write$/,
    );
    // Refused before anything ran: no summary, no failure listing, no "Reports:" line.
    expect(result.stdout).toBe('');
  });

  it("refuses the same report path given twice as the command line's mistake", async () => {
    symlinkSync(dir, join(dir, 'in-link-2'));
    const result = await runMain(['merge', 's1/report.json', './s1/report.json', '--out', 'twice', '--reporter', 'json'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('./s1/report.json: is given twice (also as s1/report.json); give each report once');
    const linked = await runMain(['merge', 's1/report.json', 'in-link-2/s1/report.json', '--out', 'twice', '--reporter', 'json'], dir);
    expect(linked.exitCode).toBe(2);
    expect(linked.stderr).toContain('in-link-2/s1/report.json: is given twice (also as s1/report.json); give each report once');
    expect(existsSync(join(dir, 'twice'))).toBe(false);
  });

  it('refuses reports of different suites (exit 2), naming each difference: a flag, and what a same-named variant changes', async () => {
    // A set of one entry is shown as a mapping, one of several (whose order matters) as a list of pairs.
    await runOtherSuiteShard('edited-suite', 'edited-s2', suiteFiles(suiteConfig(['agent: {name: Leanest bot}'])), ['--repeat', '1']);
    const result = await runMain(['merge', 's1/report.json', 'edited-s2/report.json', '--out', 'refused'], dir);
    expect(result.exitCode, result.all).toBe(2);
    // Every pair reads "this file vs the other": edited-s2 ran --repeat 1, s1 the config's 2.
    const fingerprint = (file: string) => readReport(join(dir, file)).suite.fingerprint;
    const removes = '"remove":["agent.tools.0.parameters.properties","agent.tools.0.read_only"]';
    expect(result.stderr).toContain(
      `edited-s2/report.json: not the same suite as s1/report.json (this file vs s1/report.json: suite.fingerprint ${fingerprint('edited-s2/report.json')} vs ${fingerprint('s1/report.json')}; repeat: 1 vs 2; ` +
        `variant "lean" changes: {${removes},"set":{"agent":{"name":"Leanest bot"}}} vs {${removes},"set":[["agent",{"name":"Lean bot"}],["agent.name","Leaner bot"]]})`,
    );
    expect(existsSync(join(dir, 'refused/report.json'))).toBe(false);
  });

  it('refuses shards of a suite whose scenarios differ, though run with the same flags', async () => {
    const files = suiteFiles();
    await runOtherSuiteShard('changed-suite', 'changed-s2', {
      ...files,
      'single.scenario.yaml': files['single.scenario.yaml'].replace('name: p9', 'name: p9 renamed'),
    });
    const result = await runMain(['merge', 's1/report.json', 'changed-s2/report.json', '--out', 'refused'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.stderr).toMatch(/changed-s2\/report\.json: not the same suite as s1\/report\.json .*the scenarios differ \(content hash/);
    expect(existsSync(join(dir, 'refused/report.json'))).toBe(false);
  });

  it('refuses shards whose same-named variant wrote one place in another order, and merges those in the same order', async () => {
    // The later entry's value wins (docs/formats.md, Delta): reordered, the variant runs another build.
    await runOtherSuiteShard('reordered-suite', 'reordered-s2', suiteFiles(suiteConfig([...SETS].reverse())));
    const refused = await runMain(['merge', 's1/report.json', 'reordered-s2/report.json', '--out', 'reordered-refused'], dir);
    expect(refused.exitCode, refused.all).toBe(2);
    expect(refused.stderr).toContain('reordered-s2/report.json: not the same suite as s1/report.json');
    // The removes are listed sorted: their order does not change the build (the next test).
    expect(refused.stderr).toContain(
      'variant "lean" changes: {"remove":["agent.tools.0.parameters.properties","agent.tools.0.read_only"],"set":[["agent.name","Leaner bot"],["agent",{"name":"Lean bot"}]]} vs {"remove":["agent.tools.0.parameters.properties","agent.tools.0.read_only"],"set":[["agent",{"name":"Lean bot"}],["agent.name","Leaner bot"]]}',
    );
    expect(existsSync(join(dir, 'reordered-refused/report.json'))).toBe(false);
    // Same order: the shards of this suite, merged as one (exit 1 for the failing rows only).
    expect(whole.exitCode, whole.all).toBe(1);
    expect(whole.stderr).not.toContain('not the same suite');
    expect(existsSync(join(dir, 'merged/report.json'))).toBe(true);
  });

  it('merges shards whose same-named variant lists its removes in another order, which removes the same (docs/verdicts.md, resolved)', async () => {
    // Each remove names a place in the build `set` left, so their order does not change the build.
    await runOtherSuiteShard('reversed-removes-suite', 'reversed-removes-s2', suiteFiles(suiteConfig(SETS, [...REMOVES].reverse())));
    const merged = await runMain(['merge', 's1/report.json', 'reversed-removes-s2/report.json', '--out', 'removes-merged', '--reporter', 'json'], dir);
    // Exit 1 only for the shard 3 not given.
    expect(merged.exitCode, merged.all).toBe(1);
    expect(merged.stderr).not.toContain('not the same suite');
    expect(merged.stderr).toContain('merged 2 of 3 shards');
    expect(readReport(join(dir, 'removes-merged/report.json')).scenarios.some((row) => row.variant === 'lean')).toBe(true);
  });

  it('refuses the same shard twice, overlapping rows, and mixed shard counts', async () => {
    mkdirSync(join(dir, 'copy'), { recursive: true });
    copyFileSync(join(dir, 'full/report.json'), join(dir, 'copy/report.json'));
    // A copy of a shard's report (the same path twice is refused earlier, as the command line's mistake).
    mkdirSync(join(dir, 's1copy'), { recursive: true });
    copyFileSync(join(dir, 's1/report.json'), join(dir, 's1copy/report.json'));
    // One after another: runMain checks the process is left as it was after each call.
    const twice = await runMain(['merge', 's1/report.json', 's2/report.json', 's1copy/report.json', '--out', 'refused'], dir);
    const overlap = await runMain(['merge', 'full/report.json', 'copy/report.json', '--out', 'refused'], dir);
    const mixed = await runMain(['merge', 'full/report.json', 's1/report.json', '--out', 'refused'], dir);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/s1copy\/report\.json: overlapping shards: shard 1\/3 is also s1\/report\.json/);
    expect(overlap.exitCode).toBe(2);
    expect(overlap.stderr).toMatch(/copy\/report\.json: overlapping reports: ".*" \[base\] repeat 0 is also in full\/report\.json/);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toContain('split differently (full/report.json: unsharded, s1/report.json: shard 1/3)');
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  });

  it('writes the report but exits 1 when a shard is missing, and 2 for a file that is not a report', async () => {
    // On GitHub Actions, so junit.xml and the annotations are checked in the same run as the other formats.
    const partial = await runMainFull(['merge', 's1/report.json', 's2/report.json', '--out', 'partial', '--reporter', 'table,md,html,junit'], dir, {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: join(dir, 'partial-summary.md'),
    });
    expect(partial.exitCode).toBe(1);
    expect(partial.stderr).toContain('merged 2 of 3 shards; missing shard 3');
    expect(readReport(join(dir, 'partial/report.json')).merged?.missing_shards).toEqual([3]);
    // Every readable report says shards are missing (the suite also fails: FAILED comes first).
    expect(partial.stdout).toMatch(/\(\d+\.\d s, shard 3 missing\)/);
    const md = readFileSync(join(dir, 'partial/report.md'), 'utf8');
    expect(md).toContain('> Merged without shard 3: their scenarios are not in this report.');
    expect(readFileSync(join(dir, 'partial/report.html'), 'utf8')).toContain('shard 3 missing');
    // junit.xml and the GitHub annotations fail too: an errored testcase and an agentcheck annotation.
    const junit = readFileSync(join(dir, 'partial/junit.xml'), 'utf8');
    expect(junit).toContain(
      '<testcase name="missing shards" classname="agentcheck" time="0.000">\n      <error message="Merged 2 of 3 shards; missing shard 3 (their scenarios are not in the report)" type="missing_shards">',
    );
    expect(junit).toMatch(/<testsuite name="agentcheck" tests="1" failures="0" errors="1" /);
    expect(partial.stdout).toContain('::error title=agentcheck::Merged 2 of 3 shards; missing shard 3 (their scenarios are not in the report)\n');

    writeFileSync(join(dir, 'bad.json'), '{"schema": "something/1"}');
    const bad = await runCli(['merge', 'bad.json', '--out', 'refused'], dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad.json: expected "schema": "agentcheck.report/1"');
    const missing = await runMain(['merge', 'nope/report.json', '--out', 'refused'], dir);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope/report.json: report not found');
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  });
});

describe('sharding a suite smaller than the shard count', () => {
  it('writes an empty report for an empty shard, and the merge is whole', async () => {
    const small = mkdtempSync(join(tmpdir(), 'agentcheck-merge-small-'));
    try {
      writeFileSync(join(small, 'agent.yaml'), AGENT_YAML);
      writeFileSync(join(small, 'a.scenario.yaml'), passingScenario('one'));
      // Shard 1 in-process (runMain), the empty shard 2 on the built CLI.
      const shards = [
        await runMain(['run', '.', '--shard', '1/2', '--out', 's1', '--reporter', 'json'], small),
        await runCli(['run', '.', '--shard', '2/2', '--out', 's2', '--reporter', 'json'], small),
      ];
      expect(shards.map((r) => r.exitCode)).toEqual([0, 0]);
      expect(shards[1].stderr).toContain('shard 2/2 has no scenarios; writing an empty report');
      expect(readReport(join(small, 's2/report.json')).scenarios).toEqual([]);
      const merged = await runCli(['merge', 's1/report.json', 's2/report.json', '--out', 'merged', '--reporter', 'json'], small);
      expect(merged.exitCode, merged.all).toBe(0);
      expect(readReport(join(small, 'merged/report.json')).scenarios.map((r) => r.name)).toEqual(['one']);
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  });
});
