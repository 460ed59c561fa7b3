import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';
import { AGENT, readReport } from './suite-timeout-fixture.js';

// The time-limit cases that wait out a grace period, apart from suite-timeout.test.ts so the two
// files' waits overlap on separate workers.
describe('agentcheck run: a run that does not stop at its time limit', () => {
  it('still gives a run that ignores its abort a TIMEOUT row, without hanging', async () => {
    const dir = tempDir({
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
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--timeout', '300', '--out', out, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const rows = readReport(out).scenarios;
    const stuck = rows.find((r) => r.name === 'stuck');
    expect(stuck).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' }, test_run: null });
    expect(stuck?.error?.message).toMatch(/timed out after 300 ms .*did not stop within \d+ ms of being aborted/);
    expect(rows.find((r) => r.name === 'ok')?.status).toBe('pass');
  }, 120_000);
});
