import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandTool } from '../../../../src/engine/tools/kinds/command-tool.js';
import { RunProcesses } from '../../../../src/engine/tools/process/run-processes.js';
import type { ToolContext } from '../../../../src/engine/tools/tool.js';
import { FolderWorkspace } from '../../../../src/engine/workspace/folder-workspace.js';
import { build, runScripted } from '../../../helpers/run-agent.js';
import { makeToolContext } from '../tool-context.js';
import { isRunning, waitForPidFile } from '../../../helpers/process-state.js';

let workspace: FolderWorkspace;
beforeAll(() => {
  workspace = FolderWorkspace.temp();
});
afterAll(() => workspace.dispose());

function context(processes = new RunProcesses()): ToolContext {
  return makeToolContext({ workspace, processes });
}

// The default only guards a hang (below the 120 s test timeout); the timeout tests pass their own.
function shell(script: string, timeoutMs = 90_000) {
  return createCommandTool({ name: 'sh', description: 'shell', command: { argv: ['sh', '-c', script], timeout_ms: timeoutMs } });
}

/** Polls until the process is gone; a generous deadline, never an assertion on elapsed time. */
async function gone(pid: number, deadlineMs = 100_000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (!isRunning(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isRunning(pid);
}

/** A script starting `command` in a new session and printing its pid once it is there. */
function detach(pidFile: string, command: string, starter = 'setsid'): string {
  return `${starter} sh -c 'echo $$ > ${pidFile}; exec ${command}' > /dev/null 2>&1 < /dev/null & while [ ! -s ${pidFile} ]; do sleep 0.05; done; cat ${pidFile}`;
}

function pidFrom(stdout: string): number {
  const pid = Number(stdout.trim().split('\n')[0]);
  expect(pid).toBeGreaterThan(0);
  return pid;
}

describe('a command and its process tree', () => {
  it('a timeout ends the whole group: `sh -c "sleep 300; true"` returns a timeout error', async () => {
    const processes = new RunProcesses();
    const outcome = await shell('sleep 300; true', 1000).execute({}, context(processes));
    expect(outcome).toMatchObject({ isError: true, errorType: 'timeout' });
    // Nothing of it is left for the run's end to find.
    expect(await processes.reap()).toEqual([]);
  });

  it('a timeout kills the grandchild, not only the shell', async () => {
    const outcome = await shell('sleep 300 & echo $!; wait; true', 1000).execute({}, context());
    expect(outcome.errorType).toBe('timeout');
    expect(await gone(pidFrom((outcome.result as { stdout: string }).stdout))).toBe(true);
  });

  it('a background child holding the output open ends with its leader', async () => {
    const outcome = await shell('sleep 300 & echo $!').execute({}, context());
    expect(outcome).toMatchObject({ isError: false, result: { exit_code: 0 } });
    expect(await gone(pidFrom((outcome.result as { stdout: string }).stdout))).toBe(true);
  });

  it('an abort ends the whole group', async () => {
    const controller = new AbortController();
    const ctx = { ...context(), signal: controller.signal };
    const running = shell('sleep 300 & echo $! > pid; wait').execute({}, ctx);
    const pidFile = `${await workspace.root()}/pid`;
    const pid = await waitForPidFile(pidFile);
    controller.abort();
    expect(await running).toMatchObject({ isError: true, errorType: 'canceled' });
    expect(await gone(pid)).toBe(true);
  });

  it('a setsid child that left the group is found by the run tag and killed at the run end', async () => {
    const processes = new RunProcesses();
    const outcome = await shell(detach('a.pid', 'sleep 300')).execute({}, context(processes));
    const pid = pidFrom((outcome.result as { stdout: string }).stdout);
    expect(isRunning(pid)).toBe(true);
    const killed = await processes.reap();
    expect(killed).toEqual([{ pid, command: 'sleep 300' }]);
    expect(await gone(pid)).toBe(true);
  });

  it('a run ends what its commands left behind and records it on the root span', async () => {
    const revision = build({
      tools: [{ name: 'spawn', description: 'starts a daemon', command: { argv: ['sh', '-c', detach('b.pid', 'sleep 301', 'nohup setsid')] } }],
    });
    const { spans } = await runScripted(revision, [{ tool_calls: [{ name: 'spawn', args: {} }] }, { text: 'done' }], { workspace });
    const tool = spans.find((span) => span.name === 'execute_tool spawn');
    const pid = pidFrom(JSON.parse(String(tool?.attributes['gen_ai.tool.call.result'])).stdout);
    expect(await gone(pid)).toBe(true);
    const root = spans.find((span) => span.name.startsWith('invoke_agent'));
    expect(root?.attributes['agentcheck.processes.killed']).toEqual([`${pid} sleep 301`]);
  });

  it('a setsid child that keeps the output open does not hold the command: it returns, and the run end kills the child', async () => {
    const processes = new RunProcesses();
    // The child keeps the command's stdout (no redirect) and would live ten minutes.
    const outcome = await shell(`setsid sh -c 'echo $$ > c.pid; exec sleep 600' & while [ ! -s c.pid ]; do sleep 0.05; done; cat c.pid; echo started`).execute(
      {},
      context(processes),
    );
    expect(outcome).toMatchObject({ isError: false, result: { exit_code: 0 } });
    const stdout = (outcome.result as { stdout: string }).stdout;
    expect(stdout).toContain('started');
    const pid = pidFrom(stdout);
    expect(isRunning(pid)).toBe(true);
    expect(await processes.reap()).toEqual([{ pid, command: 'sleep 600' }]);
    expect(await gone(pid)).toBe(true);
  });

  it('a file that is there but not executable says so, not "is it on PATH?"', async () => {
    const { runProcess } = await import('../../../../src/engine/tools/process/run-process.js');
    const { writeFileSync } = await import('node:fs');
    const file = `${await workspace.root()}/not-executable.sh`;
    writeFileSync(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const run = await runProcess([file], { cwd: await workspace.root(), env: { PATH: process.env.PATH ?? '' }, timeoutMs: 60_000, maxOutputBytes: 1000 });
    expect(run.status).toBe('not_found');
    expect(run.message).toContain('is it executable (chmod +x, or run it through its interpreter)?');
  });
});
