import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

/** A quick scripted scenario whose one check is the custom module `checks/<name>.mjs`. */
function checkedByModule(name: string): string {
  return `name: ${name}
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {}}]}, {text: done}]}
expect:
  terminal_tool: finish
  checks:
    - custom: {module: ./checks/${name}.mjs}
`;
}

// A suite run past its time limit is aborted through its signal, like test-run's cap: the engine
// ends the turn itself, and the row keeps what ran. The limits are far below the scripted delays,
// so the outcome does not depend on how fast the machine is.

const AGENT = `id: timeout-bot
agent:
  name: Timeout bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: lookup_order, description: Look up., read_only: true, parameters: {type: object, properties: {order_id: {type: string}}}, returns: {status: delivered}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;

/** Looks the order up, then the model takes 30 s to answer. */
function stallingScenario(name: string, extra = ''): string {
  return `name: ${name}
agent: agent.yaml
inputs: {messages: [{role: user, content: refund 1234}]}
model:
  script:
    - tool_calls: [{name: lookup_order, args: {order_id: "1234"}}]
    - {text: too late, delay_ms: 30000}
expect: {terminal_tool: finish}
${extra}`;
}

function readReport(out: string): Report {
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}

describe('agentcheck run: a run past its time limit', () => {
  it('keeps the transcript, usage, tool calls, turns and spans of what ran, as an error TIMEOUT row', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      'suite-limit.scenario.yaml': stallingScenario('suite limit'),
      'own-limit.scenario.yaml': stallingScenario('own limit', 'timeout_ms: 300\n'),
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--timeout', '400', '--out', out, '--reporter', 'table,json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const rows = readReport(out).scenarios;
    const spans = readFileSync(join(out, 'spans.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { trace_id: string; name: string });
    for (const [name, limit] of [
      ['suite limit', 'timed out after 400 ms (--timeout'],
      ['own limit', "timed out after 300 ms (the scenario's timeout_ms)"],
    ] as const) {
      const row = rows.find((r) => r.name === name);
      expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
      expect(row?.error?.message).toContain(limit);
      expect(row?.error?.message).toContain('the transcript so far is kept');
      // The lookup happened before the stall: its call, result and usage stay in the row.
      expect(row?.transcript?.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expect(row?.test_run).toMatchObject({ stop_reason: 'error', verdict: 'failed', tools: [{ name: 'lookup_order', called: 1, returned: 1, errors: 0 }] });
      expect(row?.usage?.output_tokens).toBeGreaterThan(0);
      expect(row?.turns).toBeGreaterThanOrEqual(1);
      const traceSpans = spans.filter((span) => span.trace_id === row?.test_run?.trace_id);
      expect(traceSpans.some((span) => span.name.startsWith('execute_tool lookup_order'))).toBe(true);
    }
    // The terminal failure block shows what the run did and how it stopped.
    expect(result.stdout).toContain('Tool calls (1):');
    expect(result.stdout).toContain('lookup_order({"order_id":"1234"})');
    expect(result.stdout).toContain('Stopped: error');
  }, 120_000);

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

  it('says when the limit came while the checks ran: the agent had finished, and test_run keeps its own result', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      // The two scripted steps end long before the 8 s limit, however busy the machine; the check
      // settles 2 s after it, within the backstop's 5 s grace, so the row keeps the record.
      'checks/slow.mjs': 'export default function () { return new Promise((done) => setTimeout(() => done({ status: "pass" }), 10000)); }\n',
      'slow.scenario.yaml': checkedByModule('slow'),
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--timeout', '8000', '--out', out, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const row = readReport(out).scenarios[0];
    expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' }, test_run: { stop_reason: 'end_turn' } });
    expect(row.error?.message).toContain('timed out after 8000 ms');
    expect(row.error?.message).toContain("while its checks ran; the agent's run had ended (stop_reason end_turn)");
  }, 120_000);
  it('a check that blocks the event loop past the limit is TIMEOUT too, though the timer never got a turn; the runs it held up are not', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      // Busy for 3 s without yielding: the 2 s limit's timer cannot fire until it returns.
      'checks/busy.mjs':
        'export default function () { const end = Date.now() + 3000; while (Date.now() < end) {} return { status: "pass", reason: "late" }; }\n',
      'busy.scenario.yaml': checkedByModule('busy'),
      // In flight beside it (its model answers after 1.5 s): it cannot move while the busy check
      // holds the event loop, so that time is not counted against its own 2 s.
      'waiting.scenario.yaml': `name: waiting
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model: {script: [{tool_calls: [{name: finish, args: {}}], delay_ms: 1500}, {text: done}]}
expect: {terminal_tool: finish}
`,
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--timeout', '2000', '--out', out, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const rows = readReport(out).scenarios;
    const row = rows.find((r) => r.name === 'busy');
    expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
    expect(row?.error?.message).toContain('timed out after 2000 ms');
    expect(
      rows.find((r) => r.name === 'waiting'),
      result.all,
    ).toMatchObject({ status: 'pass' });
  }, 120_000);

  it('does not wait for an MCP server that never starts: the row says TIMEOUT and the suite ends (the server stopped)', async () => {
    const marker = `agentcheck-mute-suite-mcp-${process.pid}-${Date.now()}`;
    const dir = tempDir({
      // Ten minutes to start: a suite that waited for it would hit this test's own timeout.
      'agent.yaml': `id: mute\nagent:\n  name: Mute\n  llm: {provider: scripted, model: s}\n  mcps:\n    - {name: mute, command: [node, -e, "setInterval(() => {}, 1000) // ${marker}"], start_timeout_ms: 600000}\n`,
      'mute.scenario.yaml':
        'name: mute\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: [{text: hi}]}\nexpect: {checks: [{output: {contains: hi}}]}\n',
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--timeout', '500', '--out', out, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    expect(readReport(out).scenarios[0]).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' } });
    const { stdout } = await execa('ps', ['-eo', 'args']);
    expect(stdout).not.toContain(marker);
  }, 90_000);
});
