import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

/** A flow whose plan component `p` reads `path`, then a deterministic echo step (the tester's repro). */
function planFlow(path: string): string {
  return `id: r1
agent: {name: R1}
flow:
  entry_point: p
  components:
    - {name: p, type: plan, plan: {steps: [{tools: [{name: read_file, arguments: {path: ${path}}}]}]}}
    - {name: d, type: deterministic_step, tool_name: echo, inputs: [{literal: fin, as: text}]}
  routers: [{from: p, to: d}, {from: d, to: end}]
`;
}

const FAILED_PLAN = 'plan_tool_failed (plan step steps[0].tools[0]: tool "read_file" failed: no such file or directory: missing.txt';

describe('a failed flow plan component fails the verdict, as a failed deterministic step does (end to end)', () => {
  it('test-run: verdict failed, exit 1, the plan counted as a call named after the component', async () => {
    const dir = tempDir({ 'agents/r1.yaml': planFlow('missing.txt') });
    const run = await runCli(['test-run', '--agent', 'agents/r1.yaml', '--message', 'go', '--terminal-tool', 'echo', '--json'], dir);
    expect(run.exitCode, run.all).toBe(1);
    const result = JSON.parse(run.stdout) as { verdict: string; verdict_reason: string; tools: unknown[] };
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toContain(`tool p failed: ${FAILED_PLAN}`);
    expect(result.tools).toEqual([
      { name: 'p', called: 1, returned: 0, errors: 1 },
      { name: 'echo', called: 1, returned: 1, errors: 0 },
    ]);
  });

  it('test-run: a plan component that succeeded passes, also as the terminal tool', async () => {
    const dir = tempDir({ 'agents/r1.yaml': planFlow('note.txt'), 'note.txt': 'hi' });
    // The built CLI passes with echo; the plan as the terminal tool, the same command and outcome,
    // runs through the CLI's entry in-process (runMain).
    for (const [terminal, runner] of [
      ['echo', runCli],
      ['p', runMain],
    ] as const) {
      const run = await runner(['test-run', '--agent', 'agents/r1.yaml', '--message', 'go', '--terminal-tool', terminal, '--workspace', '.', '--json'], dir);
      expect(run.exitCode, run.all).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ verdict: 'pass', verdict_reason: `terminal tool ${terminal} was called and returned a result` });
    }
  });

  it('a scenario: no_tool_errors and tool_returned count the failed plan under its component name', async () => {
    const scenario = (name: string) => `name: ${name}
agent: agents/r1.yaml
inputs: {messages: [{role: user, content: go}]}
expect:
  terminal_tool: echo
  checks:
    - no_tool_errors: {}
    - tool_returned: {tool: p}
`;
    const dir = tempDir({ 'agents/r1.yaml': planFlow('missing.txt'), 'plan.scenario.yaml': scenario('failed plan') });
    const run = await runCli(['run', '.', '--out', 'out', '--reporter', 'json'], dir);
    expect(run.exitCode, run.all).toBe(1);
    const [row] = (JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report).scenarios;
    expect(row.test_run?.verdict).toBe('failed');
    expect(row.checks.map((check) => [check.kind, check.status])).toEqual([
      ['no_tool_errors', 'fail'],
      ['tool_returned', 'fail'],
    ]);
    expect(row.checks[0].reason).toContain(`expected no tool errors; call 1 (p) failed: ${FAILED_PLAN}`);
    expect(row.checks[1].reason).toContain(`expected p to return a result without error; it was called once: call 1 failed: ${FAILED_PLAN}`);
  });
});
