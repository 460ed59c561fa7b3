import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, loadSuiteConfig, runSuite, type Report } from '../../src/index.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

/** A report without what differs between two runs of the same suite: times, trace and span ids. */
function withoutTiming(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTiming);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'started_at' || key === 'trace_id' || key === 'evidence' || /duration/.test(key)) continue;
    out[key] = withoutTiming(item);
  }
  return out;
}

describe('runSuite (library) and agentcheck run (CLI)', () => {
  it('produce the same report: the CLI writes what runSuite returns', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'agentcheck.config.yaml': 'variants:\n  lean: {set: {agent: {max_turns: 5}}}\nrepeat: 2\n',
      'suite.scenarios.yaml': `scenarios:
  - ${passingScenario('passes').replace(/\n/g, '\n    ')}
  - name: never finishes
    agent: agent.yaml
    inputs: {messages: [{role: user, content: go}]}
    model: {script: [{tool_calls: [{name: lookup, args: {id: "2"}}]}, {text: gave up}]}
    expect: {terminal_tool: finish}
`,
    });
    const out = join(dir, 'out');
    const cli = await runCli(['run', 'suite.scenarios.yaml', '--out', out, '--reporter', 'json', '--concurrency', '2'], dir);
    expect(cli.exitCode, cli.all).toBe(1);
    const written = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as unknown;

    const config = loadSuiteConfig(join(dir, 'agentcheck.config.yaml'), dir);
    const plan = loadSuite({ paths: ['suite.scenarios.yaml'], config }, dir);
    const report = await runSuite(plan, { concurrency: 2, selection: { paths: ['suite.scenarios.yaml'], config: config.file, cwd: dir } });

    expect(report.summary).toEqual({ total: 8, passed: 4, failed: 4, errored: 0, not_run: 0, skipped: 0 });
    expect(report.stats).toBeDefined();
    expect(withoutTiming(JSON.parse(JSON.stringify(report)))).toEqual(withoutTiming(written));
  });

  it('streams report.json from its temporary rows file: no row lost, the same report, the file removed', async () => {
    // 30 scenarios: every 10th from the 4th never calls the terminal tool (fail), every 10th
    // from the 8th has a custom check that throws (error, CHECK_ERROR), the rest pass.
    const scenarios = Array.from({ length: 30 }, (_, i) => {
      if (i % 10 === 3) {
        return `  - name: case ${i}\n    agent: agent.yaml\n    inputs: {messages: [{role: user, content: "go ${i}"}]}\n    model: {script: [{tool_calls: [{name: lookup, args: {id: "${i}"}}]}, {text: gave up}]}\n    expect: {terminal_tool: finish}\n`;
      }
      const extra = i % 10 === 7 ? '    - custom: {module: checks/boom.mjs}\n' : '';
      return `  - ${passingScenario(`case ${i}`, extra).replace(/\n(?=.)/g, '\n    ')}`;
    });
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/boom.mjs': "export default () => { throw new Error('boom'); };\n",
      'suite.scenarios.yaml': `scenarios:\n${scenarios.join('')}`,
    });
    const config = loadSuiteConfig(undefined, dir);
    const plan = loadSuite({ paths: ['suite.scenarios.yaml'], config }, dir);
    expect(plan.runs).toHaveLength(30);
    const { loadCustomChecks } = await import('../../src/runner/checks/load-custom-checks.js');
    await loadCustomChecks(plan.scenarios);
    const library = await runSuite(plan, { concurrency: 4, selection: { paths: ['suite.scenarios.yaml'], cwd: dir } });
    expect(library.summary).toEqual({ total: 30, passed: 24, failed: 3, errored: 3, not_run: 0, skipped: 0 });
    expect(library.scenarios.filter((row) => row.status === 'error').map((row) => row.error?.type)).toEqual(['CHECK_ERROR', 'CHECK_ERROR', 'CHECK_ERROR']);
    const expected = withoutTiming(JSON.parse(JSON.stringify(library)));

    // json alone and table,json keep compact rows and stream from the file; json,md keeps whole rows.
    // Through the CLI's entry in-process (runMainFull), as each run here costs about half a second
    // of CPU in a process: the built CLI's failing run (exit 1) and the report it writes are the
    // first test's.
    for (const reporters of ['json', 'table,json', 'json,md']) {
      const out = join(dir, `out-${reporters.replace(',', '-')}`);
      const args = ['run', 'suite.scenarios.yaml', '--out', out, '--reporter', reporters, '--concurrency', '4'];
      const cli = await runMainFull(args, dir);
      expect(cli.exitCode, cli.all).toBe(1);
      const written = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      expect(written.scenarios.map((row) => row.id)).toEqual(library.scenarios.map((row) => row.id));
      expect(withoutTiming(written), reporters).toEqual(expected);
      expect(
        readdirSync(out).filter((name) => name.startsWith('.')),
        reporters,
      ).toEqual([]);
      if (reporters.includes('table')) expect(cli.stdout).toMatch(/case 7 \[base\][\s\S]*boom/);
    }
  });

  it('a paused row carries no run_id, which agentcheck resume could not use (no checkpoint is written)', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML.replace('returns: {done: true}}', 'returns: {done: true}, permission: ask}'),
      'paused.scenario.yaml': `name: paused
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}
expect: {terminal_tool: finish}
`,
    });
    // Streamed (json alone) and in-memory (with md) rows alike: in-process (runMainFull), as the
    // first test runs a failing suite on the built CLI.
    for (const reporter of ['json', 'json,md']) {
      const out = join(dir, reporter.replace(',', '-'));
      const result = await runMainFull(['run', '.', '--out', out, '--reporter', reporter], dir);
      expect(result.exitCode, result.all).toBe(1);
      const row = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report).scenarios[0];
      expect(row.test_run?.stop_reason, reporter).toBe('paused');
      expect(row.test_run?.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(row.test_run, reporter).not.toHaveProperty('run_id');
    }
    // Nor is a checkpoint left behind for it.
    expect(readdirSync(dir).sort()).toEqual(['agent.yaml', 'json', 'json-md', 'paused.scenario.yaml']);
  });

  it('scrubs secrets from spilled rows as from whole ones', async () => {
    const secret = 'ghp_0123456789abcdefSECRET';
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'suite.scenarios.yaml': `scenarios:\n  - ${passingScenario('leaks')
        .replace('content: go', `content: "token ${secret}"`)
        .replace(/\n(?=.)/g, '\n    ')}`,
    });
    const reports = [];
    // Spilled rows (json) on the built CLI, whole ones in-process (runMainFull).
    for (const reporters of ['json', 'json,md']) {
      const out = join(dir, `out-${reporters.replace(',', '-')}`);
      const args = ['run', 'suite.scenarios.yaml', '--out', out, '--reporter', reporters];
      const cli = await (reporters === 'json' ? runCli(args, dir, { GITHUB_TOKEN: secret }) : runMainFull(args, dir, { GITHUB_TOKEN: secret }));
      expect(cli.exitCode, cli.all).toBe(0);
      const text = readFileSync(join(out, 'report.json'), 'utf8');
      expect(text).not.toContain(secret);
      expect(text).toContain('[redacted]');
      reports.push(withoutTiming(JSON.parse(text)));
    }
    expect(reports[0]).toEqual(reports[1]);
  });
});
