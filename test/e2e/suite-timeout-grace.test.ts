import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';
import { AGENT, readReport } from './suite-timeout-fixture.js';

// The time-limit cases that wait out a grace period, apart from suite-timeout.test.ts so the two
// files' waits overlap on separate workers.
// Concurrent: each test has its own folder and CLI process, and both mostly wait out time limits.
describe.concurrent('agentcheck run: a run that does not stop at its time limit', () => {
  it('still gives a run that ignores its abort a TIMEOUT row, without hanging', async ({ onTestFinished }) => {
    const dir = tempDir(
      {
        'agent.yaml': AGENT,
        // A custom check that never settles: nothing aborts it, so only the backstop ends the run.
        'checks/never.mjs': 'export default function () { return new Promise(() => {}); }\n',
        'stuck.scenario.yaml': `name: stuck
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}
expect:
  checks:
    - custom: {module: ./checks/never.mjs}
`,
        'ok.scenario.yaml': `name: ok
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}
expect: {terminal_tool: finish}
`,
      },
      onTestFinished,
    );
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--timeout', '300', '--out', out, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const rows = readReport(out).scenarios;
    const stuck = rows.find((r) => r.name === 'stuck');
    expect(stuck).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' }, test_run: null });
    expect(stuck?.error?.message).toMatch(/timed out after 300 ms .*did not stop within \d+ ms of being aborted/);
    expect(rows.find((r) => r.name === 'ok')?.status).toBe('pass');
  }, 120_000);

  it('keeps the record of a run whose command ignores SIGTERM and leaves a setsid child holding its output', async ({ onTestFinished }) => {
    const dir = tempDir(
      {
        'ws/stubborn.sh': "trap '' TERM\nsetsid sleep 171 &\nsleep 170\n",
        'agent.yaml': `id: stubborn-bot
agent:
  name: Stubborn bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: stubborn, description: Runs long., parameters: {type: object, properties: {}}, command: {argv: [sh, ./stubborn.sh], timeout_ms: 100000}}
`,
        'a.scenario.yaml': `name: stubborn
agent: agent.yaml
workspace: ws
timeout_ms: 500
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: stubborn, args: {}}]}, {text: done}]}
expect: {checks: [{no_tool_errors: {}}]}
`,
      },
      onTestFinished,
    );
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--out', out, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const [row] = readReport(out).scenarios;
    // The abort's SIGTERM is ignored: SIGKILL 2 s later, then the sweep ends the setsid child
    // at once, well within the 5 s the suite waits after an abort.
    expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
    expect(row.error?.message).not.toMatch(/nothing it recorded is kept/);
    expect(row.test_run?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(row.turns).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'spans.jsonl'), 'utf8')).toContain('execute_tool stubborn');
  }, 120_000);
});
