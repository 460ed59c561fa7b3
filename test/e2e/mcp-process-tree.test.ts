import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { STUB_SERVER } from '../engine/mcp/mcp-helpers.js';
import { isRunning, waitForPidFile, waitUntilGone } from '../helpers/process-state.js';
import { tempDir } from '../helpers/temp-dir.js';
import { CLI } from './cli.js';

/** A build whose MCP server's command starts a background child (its pid written to `pidFile`), then runs `server`. */
function agent(pidFile: string, server: string, extra = ''): string {
  const command = JSON.stringify(['sh', '-c', `sleep 300 & echo $! > ${pidFile}; exec ${server}`]);
  return `id: tree\nagent:\n  name: Tree\n  mcps:\n    - {name: stub, command: ${command}${extra}}\n`;
}

function scenario(name: string, agentFile: string, script: string): string {
  return `name: ${name}\nagent: ${agentFile}\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {script: ${script}}\n`;
}

/** Starts `agentcheck run` in `dir`; `finally` ends it and the given pids if a failing test left them. */
function startRun(dir: string, ...flags: string[]) {
  const cli = execa('node', [CLI, 'run', '.', '--out', 'out', ...flags], { cwd: dir, reject: false, env: { CI: 'true' }, all: true });
  const cleanUp = (pids: number[]) => {
    for (const pid of [cli.pid ?? 0, ...pids]) if (pid && isRunning(pid)) process.kill(pid, 'SIGKILL');
  };
  return { cli, cleanUp };
}

describe('agentcheck run: an MCP server whose command starts children', () => {
  it('ends their process groups: after the run the background children are gone and the CLI exits, for a working server and for one that never starts', async () => {
    const dir = tempDir({
      'ok.yaml': agent('ok.pid', `${process.execPath} ${STUB_SERVER}`),
      'dead.yaml': agent('dead.pid', 'sleep 299', ', start_timeout_ms: 5000'),
      'ok.scenario.yaml': scenario('ok', 'ok.yaml', '[{tool_calls: [{name: mcp__stub__echo, args: {text: x}}]}, {text: done}]'),
      'dead.scenario.yaml': scenario('dead', 'dead.yaml', '[{text: never}]'),
    });
    const { cli, cleanUp } = startRun(dir, '--reporter', 'json');
    const children: number[] = [];
    try {
      children.push(await waitForPidFile(join(dir, 'ok.pid')));
      // The children would hold the servers' pipes for 300 s: the CLI exits long before.
      await waitUntilGone(cli.pid as number);
      // Written before the dead server's start timed out: sh starts its child at once.
      children.push(Number(readFileSync(join(dir, 'dead.pid'), 'utf8')));
      const result = await cli;
      expect(result.exitCode, result.all).toBe(1);
      const rows = (
        JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as { scenarios: Array<{ name: string; status: string; error: { type: string } | null }> }
      ).scenarios;
      expect(rows.find((row) => row.name === 'ok')).toMatchObject({ status: 'pass' });
      expect(rows.find((row) => row.name === 'dead')).toMatchObject({ status: 'error', error: { type: 'MCP_START_FAILED' } });
      for (const child of children) await waitUntilGone(child);
    } finally {
      cleanUp(children);
    }
  }, 180_000);

  it('ends them when the run is interrupted (SIGINT) while a call hangs', async () => {
    const dir = tempDir({
      'agent.yaml': agent('child.pid', `${process.execPath} ${STUB_SERVER}`, ', timeout_ms: 600000'),
      'hang.scenario.yaml': scenario('hang', 'agent.yaml', '[{tool_calls: [{name: mcp__stub__hang, args: {}}]}, {text: done}]'),
    });
    const { cli, cleanUp } = startRun(dir);
    let child = 0;
    try {
      child = await waitForPidFile(join(dir, 'child.pid'));
      cli.kill('SIGINT');
      await waitUntilGone(cli.pid as number);
      const result = await cli;
      expect(result.exitCode, result.all).toBe(1);
      expect(existsSync(join(dir, 'out/report.json'))).toBe(true);
      await waitUntilGone(child);
    } finally {
      cleanUp([child]);
    }
  }, 180_000);
});
