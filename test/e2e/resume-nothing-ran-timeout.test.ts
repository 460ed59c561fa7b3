import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForFile, waitUntilGone } from '../helpers/process-state.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { shared } from '../helpers/shared-fixture.js';
import { call, connectAgentcheck } from '../runner/mcp/mcp-client.js';
import { ROOT, runCli } from './cli.js';
import { NEVER_ANSWERS, pauseWithCli, project, runRequest, SERVER } from './resume-nothing-ran-fixture.js';

/** Swaps the project's MCP server for one that never answers its start: a resume of it cannot get past its start. */
function hangServer(dir: string): void {
  writeFileSync(join(dir, 'kv.mjs'), NEVER_ANSWERS);
}

/**
 * Waits until the hung server (its pid in `started`) is gone and removes `started`, for the next
 * resume to write its own. A limit that came before the server was even spawned (a slow machine)
 * left no `started`: nothing to wait for.
 */
async function hungServerGone(dir: string): Promise<void> {
  const started = join(dir, 'started');
  if (existsSync(started)) await waitUntilGone(Number(readFileSync(started, 'utf8')));
  rmSync(started, { force: true });
}

/** Puts the working server back, once the hung one is gone. */
async function restoreServer(dir: string): Promise<void> {
  await hungServerGone(dir);
  writeFileSync(join(dir, 'kv.mjs'), SERVER);
}

// The time limit or the interrupt ends these resumes while their MCP server starts, before the
// gated call could run: nothing ran, so the run stays paused (docs/cli.md, resume). No assertion
// depends on the machine's speed: the server never answers, so the cut always comes first.
describe('a resume cut off while its MCP servers start', () => {
  /**
   * One paused run whose resume is cut twice while its server starts, by --timeout and then by
   * Ctrl-C (SIGINT), then answered again with the server back: each cut's test reads its own cut,
   * the runs folder after it, and the resume that continues the run.
   */
  const cutTwice = shared(async (makeDir) => {
    const dir = project(makeDir);
    // Paused in-process (runMainFull): the pause only sets up the built CLI's resumes this file is
    // about (resume-nothing-ran.test.ts pauses this project on the built CLI).
    const paused = await pauseWithCli(dir, runMainFull);
    const runs = () => readdirSync(join(dir, 'reports/runs'));
    hangServer(dir);
    const timedOut = await runCli(['resume', paused.run_id, '--decision', 'approve', '--timeout', '1000', '--json'], dir);
    const afterTimeout = runs();
    await hungServerGone(dir);
    const resume = runCli(['resume', paused.run_id, '--decision', 'approve', '--json'], dir);
    await waitForFile(join(dir, 'started'));
    resume.kill('SIGINT');
    const interrupted = await resume;
    const afterInterrupt = runs();
    await restoreServer(dir);
    const resumed = await runCli(['resume', paused.run_id, '--decision', 'approve', '--json'], dir);
    return { paused, timedOut, afterTimeout, interrupted, afterInterrupt, resumed, afterResume: runs() };
  });

  it('keeps the paused run (agentcheck resume --timeout), and the same answer continues it later', async () => {
    const { paused, timedOut: cut, afterTimeout, resumed, afterResume } = await cutTwice();
    expect(cut.exitCode, cut.all).toBe(1);
    expect(JSON.parse(cut.stdout)).toMatchObject({
      stop_reason: 'error',
      verdict: 'failed',
      verdict_reason: expect.stringContaining('TIMEOUT: the run timed out after 1000 ms (--timeout)'),
      run_id: paused.run_id,
      tools: paused.tools,
      approvals: paused.approvals,
    });
    expect(afterTimeout).toContain(`${paused.run_id}.checkpoint.json`);
    // Continued after the Ctrl-C test's cut too (the next test), which kept the run as this one did.
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
    expect(afterResume).not.toContain(`${paused.run_id}.checkpoint.json`);
  });

  it('keeps it when Ctrl-C (SIGINT) stops the resume while its server starts', async () => {
    const { paused, interrupted: cut, afterInterrupt, resumed } = await cutTwice();
    expect(cut.exitCode, cut.all).toBe(1);
    expect(JSON.parse(cut.stdout)).toMatchObject({ stop_reason: 'error', verdict_reason: expect.stringContaining('RUN_ABORTED'), run_id: paused.run_id });
    expect(afterInterrupt).toContain(`${paused.run_id}.checkpoint.json`);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
  });

  it('keeps it for MCP resume_run (timeout_ms) and the library resumeTestRun (timeout_ms)', async () => {
    const dir = project();
    const client = await connectAgentcheck(dir);
    try {
      const paused = (await call(client, 'test_run', runRequest(dir))).structuredContent as {
        run_id: string;
        stop_reason: string;
        tools: unknown;
        approvals: unknown;
      };
      expect(paused.stop_reason).toBe('paused');
      hangServer(dir);
      const cut = await call(client, 'resume_run', { run_id: paused.run_id, decision: 'approve', timeout_ms: 1000 });
      expect(cut.structuredContent).toMatchObject({
        stop_reason: 'error',
        verdict_reason: expect.stringContaining('TIMEOUT: the run timed out after 1000 ms (timeout_ms)'),
        run_id: paused.run_id,
        tools: paused.tools,
        approvals: paused.approvals,
      });
      await restoreServer(dir);
      const resumed = await call(client, 'resume_run', { run_id: paused.run_id, decision: 'approve' });
      expect(resumed.structuredContent).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
    } finally {
      await client.close();
    }
    const { testRun, resumeTestRun } = await import(join(ROOT, 'dist/src/index.js'));
    const paused = await testRun(runRequest(dir));
    expect(paused.stop_reason).toBe('paused');
    hangServer(dir);
    expect(await resumeTestRun({ run_id: paused.run_id, decision: 'approve', timeout_ms: 1000 })).toMatchObject({
      stop_reason: 'error',
      verdict_reason: expect.stringContaining('TIMEOUT'),
      run_id: paused.run_id,
      tools: paused.tools,
      approvals: paused.approvals,
    });
    await restoreServer(dir);
    expect(await resumeTestRun({ run_id: paused.run_id, decision: 'approve' })).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
  });
});
