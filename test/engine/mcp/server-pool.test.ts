import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { McpServerPool } from '../../../src/engine/mcp/mcp-server-pool.js';
import type { SpanRecord } from '../../../src/spans/span-record.js';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { mcpBuild, nodeArgv, SILENT_SERVER, STUB_SERVER } from './mcp-helpers.js';
import { isRunning, waitForPidFile, waitUntilGone } from '../../helpers/process-state.js';
import { tempDir } from '../../helpers/temp-dir.js';

const echo = (text: string) => ({ tool_calls: [{ name: 'mcp__stub__echo', args: { text } }] });

/** The server's pid, as the stub's echo reports it. */
function pidOf(spans: SpanRecord[]): string {
  const result = String(toolSpans(spans)[0].attributes['gen_ai.tool.call.result']);
  return /pid (\d+)/.exec(result)?.[1] ?? 'none';
}

describe('McpServerPool', () => {
  it.each([
    ['x', 'string "x"'],
    [5, 'number 5'],
    [{}, 'an object'],
    [null, 'null'],
  ])('refuses a signal that is no AbortSignal (%j) with a ConfigError naming the argument', (signal, described) => {
    const build = () => new McpServerPool(signal as unknown as AbortSignal);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(`new McpServerPool at signal: expected an AbortSignal, got ${described}`);
  });

  it('shares one server process among the runs of a pool and restarts it after a crash', async () => {
    const pool = new McpServerPool();
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER) }]);
    try {
      const runs = await Promise.all(['a', 'b', 'c'].map((text) => runScripted(revision, [echo(text), { text: 'ok' }], { mcpServers: pool })));
      const pids = runs.map((run) => pidOf(run.spans));
      expect(new Set(pids).size).toBe(1);
      expect(pids[0]).toMatch(/^\d+$/);

      const crashed = await runScripted(revision, [{ tool_calls: [{ name: 'mcp__stub__crash', args: {} }] }, echo('after'), { text: 'ok' }], {
        mcpServers: pool,
      });
      const [crash, after] = toolSpans(crashed.spans);
      expect(crash.attributes['agentcheck.tool.outcome']).toBe('error');
      expect(crash.attributes['error.type']).toBe('mcp_call_failed');
      // Within the run the server stays gone: a fast, clear tool error.
      expect(after.attributes['error.type']).toBe('mcp_server_exited');
      expect(String(after.attributes['gen_ai.tool.call.result'])).toContain('MCP server \\"stub\\" is not running');

      const next = await runScripted(revision, [echo('next'), { text: 'ok' }], { mcpServers: pool });
      expect(pidOf(next.spans)).toMatch(/^\d+$/);
      expect(pidOf(next.spans)).not.toBe(pids[0]);
    } finally {
      await pool.close();
    }
  });

  it('passes PATH, env_allow and the inside-a-run marker to the server, nothing else', async () => {
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER), env_allow: ['STUB_TOKEN'] }]);
    const { spans } = await runScripted(revision, [{ tool_calls: [{ name: 'mcp__stub__env', args: {} }] }, { text: 'ok' }], {
      env: { PATH: process.env.PATH, HOME: '/home/someone', OPENAI_API_KEY: 'sk-secret', STUB_TOKEN: 't' },
    });
    const names = JSON.parse(String(toolSpans(spans)[0].attributes['gen_ai.tool.call.result'])).names;
    expect(names).toEqual(['AGENTCHECK_INSIDE_RUN', 'PATH', 'STUB_TOKEN']);
  });

  it('stops the servers a run started on its own when the run ends', async () => {
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER) }]);
    const { spans } = await runScripted(revision, [echo('x'), { text: 'ok' }]);
    const pid = Number(pidOf(spans));
    expect(pid).toBeGreaterThan(0);
    // A generous deadline: on a loaded machine the server may take a while to exit.
    await waitUntilGone(pid);
  });

  describe("ends the server's whole process group, so a background child it started is gone too", () => {
    /** A server command that starts a background child, writes the child's pid to `pidFile`, then runs `server`. */
    const withChild = (pidFile: string, server: string) => ['sh', '-c', `sleep 300 & echo $! > ${pidFile}; exec ${server}`];
    const launch = (dir: string, command: string[], startTimeoutMs = 60_000) => ({
      name: 'tree',
      command,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      timeoutMs: 60_000,
      startTimeoutMs,
    });

    it.each([
      ['the pool closes', false],
      ['the owning run was aborted', true],
    ])('when %s', async (_when, abort) => {
      const dir = tempDir({});
      const run = new AbortController();
      const pool = new McpServerPool(run.signal);
      let child = 0;
      try {
        await pool.open(launch(dir, withChild('child.pid', `${process.execPath} ${STUB_SERVER}`)));
        child = await waitForPidFile(join(dir, 'child.pid'));
        if (abort) run.abort(new Error('time limit'));
        await pool.close();
        await waitUntilGone(child);
      } finally {
        if (child && isRunning(child)) process.kill(child, 'SIGKILL');
      }
    });

    it('when the server does not start in time', async () => {
      const dir = tempDir({});
      const pool = new McpServerPool();
      let child = 0;
      try {
        // Never answers initialize: the start fails after start_timeout_ms, ample for sh to start its child first.
        const opening = pool.open(launch(dir, withChild('child.pid', 'sleep 299'), 5_000));
        await expect(opening).rejects.toMatchObject({ code: 'MCP_START_FAILED' });
        child = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
        expect(child).toBeGreaterThan(0);
        await waitUntilGone(child);
      } finally {
        await pool.close();
        if (child && isRunning(child)) process.kill(child, 'SIGKILL');
      }
    });
  });

  it.each([
    ['an aborted run cut it short', true],
    ['its suite ended (an interrupt, the last run done) first', false],
  ])('stops a server still starting with SIGTERM at once, not after closing its stdin, when %s', async (_when, abort) => {
    const dir = tempDir({});
    const events = join(dir, 'events.log');
    const run = new AbortController();
    const pool = new McpServerPool(abort ? run.signal : undefined);
    const env = { PATH: process.env.PATH ?? '', SILENT_EVENTS_FILE: events, SILENT_PID_FILE: join(dir, 'pid') };
    let pid = 0;
    try {
      // Never answers initialize; the start limit is one only a hang reaches.
      const opening = pool.open({ name: 'silent', command: nodeArgv(SILENT_SERVER), cwd: dir, env, timeoutMs: 60_000, startTimeoutMs: 120_000 });
      pid = await waitForPidFile(join(dir, 'pid'));
      if (abort) run.abort(new Error('time limit'));
      const closing = pool.close();
      await expect(opening).rejects.toMatchObject({ code: 'MCP_START_FAILED' });
      await closing;
      await waitUntilGone(pid);
      // SIGTERM came first: the start was not stopped politely (stdin closed, SIGTERM 2 s later).
      expect(readFileSync(events, 'utf8').trim().split('\n')).toEqual(['SIGTERM']);
    } finally {
      if (pid && isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it("stops the servers of an aborted run with SIGTERM at once, and an ended run's by closing stdin first", async () => {
    const dir = tempDir({});
    const stop = async (abort: boolean) => {
      const events = join(dir, `${abort ? 'aborted' : 'ended'}.log`);
      const run = new AbortController();
      const pool = new McpServerPool(run.signal);
      const env = { PATH: process.env.PATH ?? '', STUB_EVENTS_FILE: events };
      await pool.open({ name: 'stub', command: nodeArgv(STUB_SERVER), cwd: dir, env, timeoutMs: 60_000, startTimeoutMs: 60_000 });
      if (abort) run.abort(new Error('time limit'));
      await pool.close();
      await expect.poll(() => existsSync(events) && readFileSync(events, 'utf8').includes('SIGTERM'), { timeout: 60_000 }).toBe(true);
      return readFileSync(events, 'utf8').trim().split('\n');
    };
    // An aborted run does not wait for a server busy with a cut-off call to notice stdin closing.
    expect((await stop(true))[0]).toBe('SIGTERM');
    // An ended run asks politely: stdin closes, and only a server that lingers gets SIGTERM.
    expect(await stop(false)).toEqual(['stdin-end', 'SIGTERM']);
  });
});
