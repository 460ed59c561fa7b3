import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { AGENT_YAML, runCli } from './cli.js';

// Two scenarios in one file: `ok` passes, `broken` expects a tool the script never calls.
const SUITE = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
scenarios:
  - name: ok
    model: {script: [{text: done}]}
    expect: {checks: [{output: {contains: done}}]}

  - name: broken
    model: {script: [{text: "nothing, 100% sure"}]}
    expect: {checks: [{output: {contains: "refund: created"}}]}
`;

// A name that recolours the log and reverses what follows; a model output that clears the screen.
const EVIL = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
scenarios:
  - name: "red \\e[31mname\\e[0m \\u202Egnp.exe"
    model: {script: [{text: "said \\e[2J\\e[31mred\\e[0m \\u202Eevil, 100%: sure"}]}
    expect: {checks: [{output: {contains: "refund: created"}}]}
`;

// A model output holding workflow commands.
const INJECTED = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
scenarios:
  - name: injected
    model: {script: [{text: "##[warning]pwned by the model ::add-mask::secret"}]}
    expect: {checks: [{output: {contains: "refund: created"}}]}
`;

/** A custom check that leaves a rejected promise behind (a stray error) whose message holds workflow commands. */
const STRAY = `export default function () {
  Promise.reject(new Error('oops\\n::warning title=pwned::from a stray error\\r##[warning]cr'));
  return { status: 'pass', reason: 'ok' };
}
`;

/** The scenario whose custom check (check.mjs) leaves the stray error. */
const STRAY_SCENARIO = `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: done}]}\nexpect: {checks: [{custom: {module: ./check.mjs}}]}\n`;

/**
 * Three suites in one folder, each failing one scenario, each for one test of what a run prints
 * on GitHub Actions: refunds.scenarios.yaml its plain annotation and summary, evil.scenarios.yaml
 * escapes in a name and a reason, inj.scenarios.yaml workflow commands in model text. Each
 * scenario's annotation and lines are its own, so one run serves the three tests.
 */
const SUITES = { 'agent.yaml': AGENT_YAML, 'refunds.scenarios.yaml': SUITE, 'evil.scenarios.yaml': EVIL, 'inj.scenarios.yaml': INJECTED };

/** One run of SUITES on GitHub Actions, read by the first three tests. */
const onGitHub = shared(async (dir) => {
  const summary = join(dir(), 'summary.md');
  const result = await runCli(['run', '.', '--out', 'out'], dir(SUITES), { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
  return { result, summary, annotations: result.stdout.split('\n').filter((line) => line.startsWith('::error')) };
});

/**
 * One run of SUITES and of a scenario whose check leaves a stray error, off GitHub Actions: read
 * by the tests that nothing of GitHub's is printed there (annotations, stopped commands) and that
 * stderr is left as it was. The stray error fails the run, which none of them looks at.
 */
const offGitHub = shared(async (dir) => {
  const files = { ...SUITES, 'check.mjs': STRAY, 's.scenario.yaml': STRAY_SCENARIO };
  return runCli(['run', '.', '--out', 'out', '--reporter', 'json'], dir(files));
});

describe('CI environments (built CLI)', () => {
  it("on GitHub Actions prints an error annotation on the failing scenario's file and line and appends the job summary", async () => {
    const { result, summary, annotations } = await onGitHub();
    expect(result.exitCode, result.all).toBe(1);
    // One per failing scenario (one in each file), none for a passing one.
    expect(annotations).toHaveLength(3);
    const refunds = annotations.filter((line) => line.startsWith('::error file=refunds.scenarios.yaml,'));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatch(/^::error file=refunds\.scenarios\.yaml,line=9,title=failed%3A broken \[base\]::output#0: /);
    // Newlines and % in the message are escaped as the workflow command format requires.
    expect(refunds[0]).not.toMatch(/\n/);
    expect(readFileSync(summary, 'utf8')).toMatch(/broken/);
  });

  it('shows ANSI sequences and bidi overrides of a name and a reason neither in the annotation nor in the job summary', async () => {
    const { result, summary, annotations } = await onGitHub();
    expect(result.exitCode, result.all).toBe(1);
    const evil = annotations.filter((line) => line.startsWith('::error file=evil.scenarios.yaml,'));
    expect(evil).toHaveLength(1);
    expect(evil[0]).toMatch(/^::error file=evil\.scenarios\.yaml,line=5,title=failed%3A red name <U\+202E>gnp\.exe \[base\]::output#0: /);
    // The output quoted in the reason: bidi shown, and the workflow-command escapes (%, newline) kept.
    expect(evil[0]).toContain('<U+202E>evil, 100%25: sure"%0Averdict: ');
    for (const text of [evil[0], readFileSync(summary, 'utf8')]) {
      expect(text).not.toContain('\u001b');
      expect(text).not.toContain('\u202e');
    }
  });

  it('stops workflow commands while it prints model and tool text, resuming them with a random token for its own annotations', async () => {
    const { result } = await onGitHub();
    expect(result.exitCode, result.all).toBe(1);
    const lines = result.stdout.split('\n');
    const stop = lines.findIndex((line) => /^::stop-commands::agentcheck-[0-9a-f]{24}$/.test(line));
    expect(stop, result.stdout).toBeGreaterThanOrEqual(0);
    const token = lines[stop].slice('::stop-commands::'.length);
    const resume = lines.indexOf(`::${token}::`);
    const quoted = lines.findIndex((line) => line.includes('output was "##[warning]pwned'));
    const annotation = lines.findIndex((line) => line.startsWith('::error file=inj.scenarios.yaml'));
    // The quoted text lies between the stop and the resume; the annotation comes after the resume.
    expect([stop < quoted, quoted < resume, resume < annotation]).toEqual([true, true, true]);
    // Outside GitHub Actions nothing is stopped.
    const plain = await offGitHub();
    expect(plain.stdout).not.toContain('::stop-commands::');
  });

  it('encodes a line break of user text on stderr that would start a workflow command (a stray error, an --only-failed scenario id)', async () => {
    const twoNames = `defaults:
  agent: ../agent.yaml
  inputs: {messages: [{role: user, content: go}]}
  model: {script: [{text: done}]}
scenarios:
  - name: "renamed\\n::warning title=pwned::via only-failed"
    expect: {checks: [{output: {contains: zz}}]}
  - name: stays
    expect: {checks: [{output: {contains: zz}}]}
`;
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'check.mjs': STRAY, 's.scenario.yaml': STRAY_SCENARIO, 'names/n.scenarios.yaml': twoNames });
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
    const commandLine = /^\s*(::|##\[)/m;
    // The first run also writes the report whose failed ids the rerun below selects.
    const run = await runCli(['run', 's.scenario.yaml', 'names', '--out', 'r1', '--reporter', 'json', '--quiet'], dir, env);
    expect(run.exitCode, run.all).toBe(1);
    expect(run.stderr).toContain('Error: oops%0A::warning title=pwned::from a stray error<U+000D>##%5Bwarning]cr');
    expect(run.stderr).not.toMatch(commandLine);
    // Off GitHub Actions stderr is left as it was.
    expect((await offGitHub()).stderr).toMatch(commandLine);

    const file = join(dir, 'names/n.scenarios.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('renamed\\n::warning title=pwned::via only-failed', 'renamed now'));
    const rerun = await runCli(['run', 's.scenario.yaml', 'names', '--only-failed', 'r1/report.json', '--out', 'r2', '--reporter', 'json'], dir, env);
    expect(rerun.stderr).toContain('renamed%0A::warning title=pwned::via only-failed');
    expect(rerun.stderr).not.toMatch(commandLine);
  });

  it("names the annotation's file from the repository root ($GITHUB_WORKSPACE) when the step runs in a subfolder", async () => {
    const root = tempDir({ 'ci/agent.yaml': AGENT_YAML, 'ci/refunds.scenarios.yaml': SUITE });
    // With an AGENTCHECK_GITHUB value that is neither off nor on (asserted at the end). These runs
    // in-process (runMainFull, runMain): what they read is the environment main() is given; the
    // built CLI's failing runs on GitHub Actions are the tests' above.
    const result = await runMainFull(['run', '.', '--out', 'out', '--reporter', 'json'], join(root, 'ci'), {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: join(root, 'summary.md'),
      GITHUB_WORKSPACE: root,
      AGENTCHECK_GITHUB: 'nah',
    });
    expect(result.stdout).toMatch(/^::error file=ci\/refunds\.scenarios\.yaml,line=9,/m);
    // $GITHUB_WORKSPACE reached through a symbolic link (macOS /tmp, a linked volume), as the
    // step's folder or as the variable: the file is still named from the repository root.
    const link = join(tempDir(), 'workspace-link');
    symlinkSync(root, link);
    for (const [cwd, workspace] of [
      [join(link, 'ci'), link],
      [join(root, 'ci'), link],
      [join(link, 'ci'), root],
    ]) {
      const linked = await runMain(['run', '.', '--out', 'out', '--reporter', 'json'], cwd, {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: join(root, 'summary.md'),
        GITHUB_WORKSPACE: workspace,
      });
      expect(linked.stdout, `${cwd} in ${workspace}`).toMatch(/^::error file=ci\/refunds\.scenarios\.yaml,line=9,/m);
    }
    // A value that is neither off nor on keeps them on (the first run's annotations), and says so.
    expect(result.stdout).toMatch(/^::error/m);
    expect(result.stderr).toContain(
      'agentcheck: AGENTCHECK_GITHUB="nah" is not recognised (off, false, 0 or no turn the GitHub annotations and job summary off; on, true, 1 or yes keep them on): keeping them on',
    );
  });

  it('prints no annotations and writes no summary outside GitHub Actions, or on it with AGENTCHECK_GITHUB=off (shard jobs)', async () => {
    const result = await offGitHub();
    expect(result.stdout).not.toMatch(/^::error/m);
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'refunds.scenarios.yaml': SUITE });
    const summary = join(tempDir(), 'summary.md');
    // In-process (runMainFull), as the built CLI runs on GitHub Actions in the tests above and off it here.
    const off = await runMainFull(['run', '.', '--out', 'out', '--reporter', 'json'], dir, {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
      AGENTCHECK_GITHUB: 'off',
    });
    expect(off.exitCode, off.all).toBe(1);
    expect(off.stdout).not.toMatch(/^::error/m);
    expect(existsSync(summary)).toBe(false);
    // Its other spellings (false, 0, no, in any case) are test/runner/ci/in-github-actions.test.ts's: one reading of the variable.
    expect(off.stderr).not.toContain('AGENTCHECK_GITHUB');
  });

  it("takes the shard from GitLab's CI_NODE_INDEX/CI_NODE_TOTAL when --shard is not given, and --shard wins", async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'refunds.scenarios.yaml': SUITE });
    const env = { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '2' };
    // In-process (runMainFull): the built CLI reads the variables in the refusal below.
    const fromEnv = await runMainFull(['run', '.', '--out', 'a', '--reporter', 'json'], dir, env);
    expect(fromEnv.exitCode, fromEnv.all).toBe(0);
    expect(fromEnv.stderr).toContain('running shard 2/2 (from CI_NODE_INDEX/CI_NODE_TOTAL; --shard overrides)');
    const report = JSON.parse(readFileSync(join(dir, 'a/report.json'), 'utf8')) as Report;
    expect(report.suite.shard).toEqual({ index: 2, total: 2 });
    expect(report.scenarios).toHaveLength(1);
    // The flag wins (shard 1 of 2, not the variable's 2), its surrounding spaces trimmed as for the
    // number flags: in-process (runMain), as is the shard from the variables above.
    const flag = await runMain(['run', '.', '--out', 'b', '--reporter', 'json', '--shard', ' 1/2 ', '--repeat', ' 1'], dir, env);
    expect(flag.exitCode, flag.all).toBe(1);
    expect(flag.stderr).not.toContain('running shard');
    expect(flag.stderr).not.toContain('invalid');
    const flagged = JSON.parse(readFileSync(join(dir, 'b/report.json'), 'utf8')) as Report;
    expect([flagged.suite.shard, flagged.suite.repeat, flagged.scenarios.map((row) => row.name)]).toEqual([{ index: 1, total: 2 }, 1, ['broken']]);
    const bad = await runCli(['run', '.', '--out', 'c'], dir, { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '2' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('CI_NODE_INDEX: expected a whole number from 1 to 2');
    // A shard count beyond any CI's parallelism is refused, not rounded or listed shard by shard: a
    // flag refused before anything runs, as the built CLI refuses the variables just above: in-process (runMain).
    const huge = await runMain(['run', '.', '--out', 'd', '--shard', '1/99999999999999999999'], dir);
    expect(huge.exitCode).toBe(2);
    expect(huge.stderr).toContain('expected I/N with 1 <= I <= N <= 10000');
    expect(existsSync(join(dir, 'd'))).toBe(false);
  });
});
