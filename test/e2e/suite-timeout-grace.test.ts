import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shared } from '../helpers/shared-fixture.js';
import { runCli } from './cli.js';
import { AGENT, readReport } from './suite-timeout-fixture.js';

// The time-limit cases that wait out a grace period, apart from suite-timeout.test.ts so the two
// files' waits overlap on separate workers. One run of the built CLI holds both cases (and a
// scenario that passes beside them): stuck and ok under --timeout 300, stubborn under its own
// timeout_ms (a scenario's timeout_ms wins over --timeout, docs/cli.md); each test reads its rows.

const STUBBORN_AGENT = `id: stubborn-bot
agent:
  name: Stubborn bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: stubborn, description: Runs long., parameters: {type: object, properties: {}}, command: {argv: [sh, ./stubborn.sh], timeout_ms: 100000}}
`;

const run = shared(async (dir) => {
  const root = dir({
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
    'ws/stubborn.sh': "trap '' TERM\nsetsid sleep 171 &\nsleep 170\n",
    'stubborn.yaml': STUBBORN_AGENT,
    'stubborn.scenario.yaml': `name: stubborn
agent: stubborn.yaml
workspace: ws
timeout_ms: 500
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: stubborn, args: {}}]}, {text: done}]}
expect: {checks: [{no_tool_errors: {}}]}
`,
  });
  const out = join(root, 'out');
  const result = await runCli(['run', '.', '--timeout', '300', '--out', out, '--reporter', 'json'], root);
  return { out, result, rows: readReport(out).scenarios };
});

describe('agentcheck run: a run that does not stop at its time limit', () => {
  it('still gives a run that ignores its abort a TIMEOUT row, without hanging', async () => {
    const { result, rows } = await run();
    expect(result.exitCode, result.all).toBe(1);
    const stuck = rows.find((r) => r.name === 'stuck');
    expect(stuck).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' }, test_run: null });
    expect(stuck?.error?.message).toMatch(/timed out after 300 ms .*did not stop within \d+ ms of being aborted/);
    expect(rows.find((r) => r.name === 'ok')?.status).toBe('pass');
  }, 120_000);

  it('keeps the record of a run whose command ignores SIGTERM and leaves a setsid child holding its output', async () => {
    const { out, result, rows } = await run();
    expect(result.exitCode, result.all).toBe(1);
    const row = rows.find((r) => r.name === 'stubborn')!;
    // The abort's SIGTERM is ignored: SIGKILL 2 s later, then the sweep ends the setsid child
    // at once, well within the 5 s the suite waits after an abort.
    expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
    expect(row.error?.message).not.toMatch(/nothing it recorded is kept/);
    expect(row.test_run?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(row.turns).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'spans.jsonl'), 'utf8')).toContain('execute_tool stubborn');
  }, 120_000);
});
