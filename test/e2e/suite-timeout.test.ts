import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';
import { AGENT, checkedByModule, readReport, stallingScenario } from './suite-timeout-fixture.js';

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

  it('a check that blocks the event loop past the limit is TIMEOUT too, though the timer never got a turn; the runs it held up are not', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      // Holds the event loop for 3 s without yielding: the 2 s limit's timer cannot fire until it
      // returns. Atomics.wait blocks the thread as a busy loop does, without spending 3 s of CPU.
      'checks/busy.mjs':
        'export default function () { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000); return { status: "pass", reason: "late" }; }\n',
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
