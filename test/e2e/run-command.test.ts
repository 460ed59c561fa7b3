import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { once, sharedDir } from '../helpers/shared-fixture.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitForFile } from '../helpers/process-state.js';
import { AGENT_YAML, CLI, passingScenario, runCli } from './cli.js';
import { findAll, parseXml } from '../runner/reporters/xml-check.js';

function readReport(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
}

describe('agentcheck run (end to end)', () => {
  it('runs the shipped example suites offline and exits 0', async () => {
    const out = tempDir();
    const result = await runCli(['run', 'scenarios/', '--out', out, '--reporter', 'table,json,md,junit']);
    expect(result.exitCode, result.all).toBe(0);
    const report = readReport(out);
    expect(report.schema).toBe('agentcheck.report/1');
    expect(report.summary.failed + report.summary.errored).toBe(0);
    expect(report.summary.total).toBeGreaterThanOrEqual(9);
    expect(result.stdout).toMatch(/\d+ scenarios: \d+ passed/);
    expect(readFileSync(join(out, 'spans.jsonl'), 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(report.summary.total);
  });

  it('exits 2 and names file:line:col for a broken scenario file, running nothing', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'bad.scenario.yaml': 'name: bad\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nexpect:\n  terminal_tol: finish\n',
    });
    // Refused at load, as the built CLI refuses files in commands.test.ts: the CLI's entry in-process.
    const result = await runMain(['run', '.', '--out', join(dir, 'out')], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/bad\.scenario\.yaml:5:3 at expect\.terminal_tol: unknown key "terminal_tol"/);
  });

  it('exits 2 for an unknown flag and for a folder without scenarios', async () => {
    // The unknown flag in-process (runMain); the folder without scenarios on the built CLI.
    expect((await runMain(['run', '--no-such-flag'])).exitCode).toBe(2);
    const empty = tempDir({ 'readme.txt': 'nothing', 'sub/notes.txt': 'x', 'more/notes.txt': 'y' });
    // No path given: the current folder is searched, and named.
    const result = await runCli(['run'], empty);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no scenarios to run under . (scenario files are named *.scenario.yaml or *.scenarios.yaml)');
    // The paths searched are named, so with several the user sees which were meant to hold scenarios.
    const two = await runMain(['run', 'sub', 'more/'], empty);
    expect(two.exitCode).toBe(2);
    expect(two.stderr).toContain('no scenarios to run under sub, more/ (');
  });

  it('skips .-named and node_modules folders, and says so when only they hold scenario files', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'top.scenario.yaml': passingScenario('top'),
      'sub/.ci/a.scenario.yaml': passingScenario('hidden').replace('agent: agent.yaml', 'agent: ../../agent.yaml'),
      'sub/node_modules/pkg/b.scenario.yaml': passingScenario('dependency'),
    });
    // The runs, as the refusals below, through the CLI's entry in-process (runMainFull): which
    // files a folder search finds is the loader's logic; the built CLI runs folders above.
    const all = await runMainFull(['run', '.', '--out', 'out', '--reporter', 'json'], dir);
    expect(all.exitCode, all.all).toBe(0);
    expect(readReport(join(dir, 'out')).scenarios.map((row) => row.id)).toEqual(['top.scenario.yaml#top']);
    // The error no longer blames file names that are right: it names the skipped files and the path to give.
    // The built CLI refuses a folder without scenarios above.
    const skipped = await runMain(['run', 'sub'], dir);
    expect(skipped.exitCode).toBe(2);
    expect(skipped.stderr).toContain(
      'no scenarios to run under sub (scenario files are named *.scenario.yaml or *.scenarios.yaml); 2 scenario files were skipped: sub/.ci/a.scenario.yaml, sub/node_modules/pkg/b.scenario.yaml (a folder search skips names starting with "." and node_modules folders; give it by name: agentcheck run sub/.ci)',
    );
    const validated = await runMain(['validate', 'sub'], dir);
    expect(validated.exitCode).toBe(2);
    expect(validated.stderr).toContain('2 scenario files were skipped: sub/.ci/a.scenario.yaml');
    expect(validated.stderr).toContain('give it by name: agentcheck validate sub/.ci)');
    // Given by name, the folder runs.
    const named = await runMainFull(['run', 'sub/.ci', '--out', 'out2', '--reporter', 'json'], dir);
    expect(named.exitCode, named.all).toBe(0);
    expect(readReport(join(dir, 'out2')).scenarios.map((row) => row.name)).toEqual(['hidden']);
  });

  it('covers every scenario exactly once across shards', async () => {
    const files: Record<string, string> = { 'agent.yaml': AGENT_YAML };
    for (let i = 0; i < 10; i++) files[`s${i}.scenario.yaml`] = passingScenario(`scenario ${i}`);
    const dir = tempDir(files);
    const seen: string[] = [];
    // In-process (runMainFull): which runs a shard takes is the planner's logic.
    for (let shard = 1; shard <= 3; shard++) {
      const out = join(dir, `out${shard}`);
      const result = await runMainFull(['run', '.', '--shard', `${shard}/3`, '--out', out, '--reporter', 'json'], dir);
      expect(result.exitCode, result.all).toBe(0);
      const ids = readReport(out).scenarios.map((row) => row.id);
      expect(ids.length).toBeGreaterThanOrEqual(3);
      seen.push(...ids);
    }
    expect(seen.sort()).toEqual(Array.from({ length: 10 }, (_v, i) => `s${i}.scenario.yaml#scenario ${i}`).sort());
    expect((await runMain(['run', '.', '--shard', '4/3'], dir)).exitCode).toBe(2);
  });

  // Scenarios ended by their time limits, beside one that passes, and a suite file with a failing
  // row, run once: read by the three tests below, each about its own rows. Every limit is far
  // below a test's timeout: the scripts and mocks wait a minute or ten, so only the limits end them.
  const TIMED_OUT = sharedDir({
    'agent.yaml': AGENT_YAML,
    'suite.scenarios.yaml': `scenarios:
  - ${passingScenario('passes').replace(/\n/g, '\n    ')}
  - name: never finishes
    agent: agent.yaml
    inputs: {messages: [{role: user, content: go}]}
    model: {script: [{tool_calls: [{name: lookup, args: {id: "2"}}]}, {text: "gave up <&>"}]}
    expect: {terminal_tool: finish}
`,
    'ok.scenario.yaml': passingScenario('fine'),
    'hang.scenario.yaml': `name: hangs
agent: agent.yaml
timeout_ms: 300
inputs: {messages: [{role: user, content: go}]}
model: {script: [{text: late, delay_ms: 60000}]}
`,
    'slow.yaml': `id: slow
agent:
  name: Slow
  tools:
    - {name: get, description: g, http: {method: GET, url: "https://x.test/slow", timeout_ms: 200}}
    - {name: wait, description: w, http: {method: GET, url: "https://x.test/wait"}}
`,
    'tool.scenario.yaml': `name: tool timeout
agent: slow.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: get, args: {}}]}, {text: ok}]}
mocks: {http: [{url: "https://x.test/slow", delay_ms: 600000, json: {ok: true}}]}
expect: {terminal_tool: get, verdict: failed}
`,
    'run.scenario.yaml': `name: run limit
agent: slow.yaml
timeout_ms: 300
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: wait, args: {}}]}, {text: ok}]}
mocks: {http: [{url: "https://x.test/wait", delay_ms: 600000, json: {ok: true}}]}
`,
  });
  const timedOutRun = once(() => runCli(['run', '.', '--out', 'out', '--reporter', 'json,md,junit'], TIMED_OUT));

  it('exits 1 with a failing row, and writes json, md and junit reports', async () => {
    // suite.scenarios.yaml's two rows, in the shared run above beside the time limits' rows.
    const result = await timedOutRun();
    const out = join(TIMED_OUT, 'out');
    expect(result.exitCode, result.all).toBe(1);
    const report = readReport(out);
    // Its own two rows (one pass, one fail) and the four of the time limits (two pass, two errors).
    expect(report.summary).toMatchObject({ total: 6, passed: 3, failed: 1, errored: 2 });
    const failed = report.scenarios.find((row) => row.status === 'fail');
    expect(failed?.id).toBe('suite.scenarios.yaml#never finishes');
    expect(failed?.test_run?.verdict).toBe('incomplete');
    expect(failed?.reason).toContain('verdict incomplete, expected pass');
    expect(failed?.test_run?.tools).toEqual([{ name: 'lookup', called: 1, returned: 1, errors: 0 }]);

    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    const cases = findAll(parseXml(junit), 'testcase');
    expect(cases).toHaveLength(6);
    expect(cases.filter((c) => c.children.some((child) => child.name === 'failure'))).toHaveLength(1);
    expect(junit).toContain('<testcase name="never finishes [base]"');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md.indexOf('never finishes')).toBeLessThan(md.lastIndexOf('passes'));
  });

  it('times out a hanging scenario with an error row while the others pass', async () => {
    // hang.scenario.yaml's script waits 60 s; only its 300 ms limit ends the run.
    const result = await timedOutRun();
    expect(result.exitCode).toBe(1);
    const rows = readReport(join(TIMED_OUT, 'out')).scenarios;
    expect(rows.find((r) => r.name === 'hangs')).toMatchObject({
      status: 'error',
      error: { type: 'TIMEOUT', message: expect.stringContaining('timed out after 300 ms') },
    });
    expect(rows.find((r) => r.name === 'fine')?.status).toBe('pass');
  });

  it("a request given up while its mock holds the answer back (tool timeout_ms, the run's limit) ends quietly: no stack trace", async () => {
    // tool.scenario.yaml and run.scenario.yaml: their mocks wait ten minutes; only the tool's
    // timeout_ms and the scenario's limit end the requests.
    const result = await timedOutRun();
    expect(result.exitCode, result.all).toBe(1);
    const rows = readReport(join(TIMED_OUT, 'out')).scenarios;
    expect(rows.find((r) => r.name === 'tool timeout')?.status).toBe('pass');
    expect(rows.find((r) => r.name === 'run limit')).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
    expect(result.stderr).not.toContain('[MSW]');
    expect(result.stderr).not.toContain('AbortError');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 90_000);

  it('writes a report of not_run rows when SIGINT comes while the suite is still loading (exit 1, not 130)', async () => {
    // The custom check module holds the loading until the signal came: the interrupt lands mid-load.
    const waiting = `import { writeFileSync } from 'node:fs';
writeFileSync(new URL('./loading', import.meta.url), '');
const alive = setInterval(() => {}, 1000);
await new Promise((resolve) => process.once('SIGINT', resolve));
clearInterval(alive);
export default function () { return {status: 'pass', reason: 'ok'}; }
`;
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/wait.mjs': waiting,
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/wait.mjs}'),
      'b.scenario.yaml': passingScenario('b'),
    });
    const child = execa('node', [CLI, 'run', '.', '--out', join(dir, 'out'), '--reporter', 'json'], { cwd: dir, reject: false, env: { CI: 'true' } });
    await waitForFile(join(dir, 'checks/loading'));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(1);
    const report = readReport(join(dir, 'out'));
    expect(report.interrupted).toBe(true);
    expect(report.scenarios.map((row) => row.status)).toEqual(['not_run', 'not_run']);
  });

  it('gives up on a run that does not stop at a second interrupt, without waiting out the grace', async () => {
    // The check interrupts its own run, and again once the first interrupt was heard; it never settles.
    const twice = `export default function () {
  let heard = 0;
  process.on('SIGINT', () => { if (++heard === 1) setImmediate(() => process.kill(process.pid, 'SIGINT')); });
  process.kill(process.pid, 'SIGINT');
  return new Promise(() => {});
}
`;
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/twice.mjs': twice,
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/twice.mjs}'),
    });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const report = readReport(join(dir, 'out'));
    expect(report.scenarios[0]).toMatchObject({
      status: 'not_run',
      reason: expect.stringContaining('a second interrupt gave up on the run before it stopped'),
    });
  });

  it('fails with a message, never exit 0, when a custom check module awaits something that can never settle', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/never.mjs': 'await new Promise(() => {});\nexport default function () { return {status: "pass", reason: "ok"}; }\n',
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/never.mjs}'),
    });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json'], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('agentcheck: the command stopped before it finished: something it awaited can never settle');
  });
});
