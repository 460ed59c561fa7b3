import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ConfigError, RunError, resumeTestRun, testRun, type TestRunRequest } from '../../../src/index.js';
import { resumeTestRun as resumeInVitest, testRun as testRunInVitest } from '../../../src/vitest/index.js';
import { gatedWrite as sharedGatedWrite, twoGatedWrites } from '../../helpers/gated-write.js';
import { libraryPausedRuns } from '../../../src/runner/resume/paused-run-store.js';

const gatedWrite: TestRunRequest = sharedGatedWrite;

/** Two refunds around a gated call; the refund endpoint answers 200, then 500. */
const SEQUENCED_REFUNDS: TestRunRequest = {
  agent: {
    id: 'bot',
    agent: {
      name: 'Bot',
      llm: { provider: 'scripted', model: 's' },
      tools: [
        { name: 'danger', description: 'Dangerous.', permission: 'ask', parameters: { type: 'object', properties: {} }, returns: { deleted: true } },
        {
          name: 'refund',
          description: 'Refund.',
          parameters: { type: 'object', properties: { id: { type: 'string' } } },
          http: { method: 'POST', url: 'https://shop.test/refunds', body: { id: '{{ args.id }}' } },
        },
      ],
    },
  },
  inputs: { messages: [{ role: 'user', content: 'refund both' }] },
  expectations: { terminal_tool: 'refund' },
  mocks: {
    http: [
      {
        method: 'POST',
        url: 'https://shop.test/refunds',
        responses: [
          { status: 200, json: { n: 1 } },
          { status: 500, json: { error: 'second' } },
        ],
      },
    ],
  },
  script: [
    { tool_calls: [{ name: 'refund', args: { id: '1' } }] },
    { tool_calls: [{ name: 'danger', args: {} }] },
    { tool_calls: [{ name: 'refund', args: { id: '2' } }] },
    { text: 'ok' },
  ],
};

async function pause(): Promise<string> {
  const paused = await testRun(gatedWrite);
  expect(paused).toMatchObject({ stop_reason: 'paused', verdict: 'incomplete', approvals: [{ tool: 'write_file', decision: 'pending' }] });
  expect(paused.run_id).toEqual(expect.any(String));
  return paused.run_id as string;
}

/** A paused run whose workspace is made under a temp folder of the test's own (os.tmpdir() reads TMPDIR); its name is `made`. */
async function pauseInOwnTmp(): Promise<{ tmp: string; runId: string; made: string }> {
  const tmp = mkdtempSync(join(tmpdir(), 'agentcheck-test-tmp-'));
  const saved = process.env.TMPDIR;
  let runId: string;
  try {
    process.env.TMPDIR = tmp;
    runId = await pause();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  const [made] = readdirSync(tmp);
  expect(made).toMatch(/^agentcheck-ws-/);
  return { tmp, runId, made };
}

describe('library testRun -> resumeTestRun', () => {
  it("approve: the write lands in the paused run's workspace, the run passes, and a run_id is answered once", async () => {
    const runId = await pause();
    const result = await resumeTestRun({ run_id: runId, decision: 'approve' });
    expect(result).toMatchObject({ stop_reason: 'end_turn', verdict: 'pass', output: 'Done.', approvals: [{ tool: 'write_file', decision: 'approve' }] });
    expect(result.run_id).toBeUndefined();
    expect(result.tools).toEqual([
      { name: 'write_file', called: 1, returned: 1, errors: 0 },
      { name: 'read_file', called: 1, returned: 1, errors: 0 },
    ]);
    const again = resumeTestRun({ run_id: runId, decision: 'approve' });
    await expect(again).rejects.toBeInstanceOf(RunError);
    await expect(again).rejects.toMatchObject({ code: 'UNKNOWN_RUN', message: expect.stringContaining(`no paused run ${runId} in this process`) });
  });

  it("refuses to go on when the paused run's workspace was removed since (a temp cleaner), and forgets the run", async () => {
    const { tmp, runId, made } = await pauseInOwnTmp();
    rmSync(join(tmp, made), { recursive: true, force: true });
    const result = await resumeTestRun({ run_id: runId, decision: 'approve' });
    expect(result).toMatchObject({ stop_reason: 'error', verdict: 'failed' });
    expect(result.verdict_reason).toContain(`WORKSPACE_NOT_FOUND: the run's workspace folder ${join(tmp, made)} is gone since the run worked in it`);
    // Nothing was written into a fresh folder in its place, and no answer can go on there.
    expect(existsSync(join(tmp, made))).toBe(false);
    expect(result.run_id).toBeUndefined();
    await expect(resumeTestRun({ run_id: runId, decision: 'approve' })).rejects.toMatchObject({ code: 'UNKNOWN_RUN' });
    rmSync(tmp, { recursive: true, force: true });
  });

  it("refuses to go on when the paused run's workspace was replaced by a symbolic link, and forgets the run, leaving the link's folder alone", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'agentcheck-test-elsewhere-'));
    const { tmp, runId, made } = await pauseInOwnTmp();
    rmSync(join(tmp, made), { recursive: true, force: true });
    symlinkSync(elsewhere, join(tmp, made));
    const result = await resumeTestRun({ run_id: runId, decision: 'approve' });
    expect(result).toMatchObject({ stop_reason: 'error', verdict: 'failed', approvals: [{ tool: 'write_file', decision: 'pending' }] });
    expect(result.verdict_reason).toContain(
      `WORKSPACE_NOT_FOUND: the run's workspace folder ${join(tmp, made)} is a symbolic link now (to ${elsewhere}), not the folder the run worked in`,
    );
    // The approved write never ran, there or anywhere, and the run cannot be answered again.
    expect(result.tools).toEqual([{ name: 'write_file', called: 1, returned: 0, errors: 0 }]);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(result.run_id).toBeUndefined();
    await expect(resumeTestRun({ run_id: runId, decision: 'approve' })).rejects.toMatchObject({ code: 'UNKNOWN_RUN' });
    expect(existsSync(elsewhere)).toBe(true);
    rmSync(tmp, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('deny: the call is not made, so the read finds no file', async () => {
    const result = await resumeTestRun({ run_id: await pause(), decision: 'deny' });
    expect(result).toMatchObject({ stop_reason: 'end_turn', verdict: 'failed', approvals: [{ tool: 'write_file', decision: 'deny' }] });
    expect(result.verdict_reason).toMatch(/^tool read_file failed: file_not_found/);
  });

  it('a run that pauses again gets a new run_id, and the last result lists every decision', async () => {
    const twoWrites: TestRunRequest = twoGatedWrites;
    const first = await testRun(twoWrites);
    const second = await resumeTestRun({ run_id: first.run_id as string, decision: 'approve' });
    expect(second.stop_reason).toBe('paused');
    expect(second.run_id).toEqual(expect.any(String));
    expect(second.run_id).not.toBe(first.run_id);
    const last = await resumeTestRun({ run_id: second.run_id as string, decision: 'deny' });
    expect(last.approvals).toEqual([
      { tool: 'write_file', decision: 'approve' },
      { tool: 'write_file', decision: 'deny' },
    ]);
  });

  it('scores a resume as the whole run: a terminal tool that returned before the pause still counts', async () => {
    const paused = await testRun({
      ...gatedWrite,
      expectations: { terminal_tool: 'read_file' },
      script: [
        { tool_calls: [{ name: 'read_file', args: { path: 'NOTES.md' } }] },
        { tool_calls: [{ name: 'write_file', args: { path: 'TODO.md', content: 'n' } }] },
        { text: 'Done.' },
      ],
    });
    expect(paused).toMatchObject({ stop_reason: 'paused', verdict: 'pass' });
    const result = await resumeTestRun({ run_id: paused.run_id as string, decision: 'approve' });
    expect(result).toMatchObject({ stop_reason: 'end_turn', verdict: 'pass', approvals: [{ tool: 'write_file', decision: 'approve' }] });
    expect(result.tools).toEqual([
      { name: 'read_file', called: 1, returned: 1, errors: 0 },
      { name: 'write_file', called: 1, returned: 1, errors: 0 },
    ]);
    expect(result.trace_id).not.toBe(paused.trace_id);
  });

  it("goes on with each mock's responses sequence where the pause left it", async () => {
    const paused = await testRun(SEQUENCED_REFUNDS);
    expect(paused).toMatchObject({ stop_reason: 'paused', verdict: 'pass' });
    const result = await resumeTestRun({ run_id: paused.run_id as string, decision: 'approve' });
    // The second refund gets the sequence's second answer (500), as in a run that never paused.
    expect(result).toMatchObject({ verdict: 'failed', verdict_reason: 'tool refund failed: http_500 (HTTP 500: second)' });
  });

  it("agentcheck/vitest's testRun and resumeTestRun share the pause, and record the resumed run's calls", async () => {
    const paused = await testRunInVitest(gatedWrite);
    const result = await resumeInVitest({ run_id: paused.run_id as string, decision: 'approve' });
    expect(result.verdict).toBe('pass');
    expect(result).toHaveCalledTool('read_file', { path: 'CHANGELOG.md' });
  });

  it('refuses a key named like an Object.prototype member as unknown, rather than ignoring it', async () => {
    for (const name of ['constructor', 'toString']) {
      await expect(resumeTestRun({ run_id: 'r', decision: 'approve', [name]: 1 } as never)).rejects.toThrow(`resumeTestRun at ${name}: unknown key "${name}"`);
    }
  });

  it('refuses a paused run whose pending call is not the one its messages hold waiting, before anything runs, and keeps it (resume_run shares this path)', async () => {
    const runId = await pause();
    // The kept checkpoint is the engine's own; edited here as a checkpoint file could be.
    const kept = libraryPausedRuns.take(runId)!;
    const written = kept.checkpoint.pending!;
    await libraryPausedRuns.add(runId, { ...kept, checkpoint: { ...kept.checkpoint, pending: { ...written, tool: 'read_file' } } });
    const refused = resumeTestRun({ run_id: runId, decision: 'approve' });
    await expect(refused).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message: expect.stringMatching(
        /it is damaged: pending\.tool: expected "write_file", the tool of the call the checkpoint's state\.messages\[\d+\]\.tool_calls\[0\] holds waiting .*got "read_file"/,
      ),
    });
    // Kept, with its workspace: put right, it still resumes.
    const again = libraryPausedRuns.take(runId)!;
    expect(again).toBeDefined();
    await libraryPausedRuns.add(runId, { ...again, checkpoint: { ...again.checkpoint, pending: written } });
    expect((await resumeTestRun({ run_id: runId, decision: 'approve' })).verdict).toBe('pass');
  });

  it('refuses a bad answer with every problem named, and keeps the paused run', async () => {
    const runId = await pause();
    const bad = resumeTestRun({ run_id: runId, decision: 'maybe', timeout_ms: 0, extra: 1 } as never);
    await expect(bad).rejects.toBeInstanceOf(ConfigError);
    const message = String(await bad.catch((error: Error) => error.message));
    expect(message).toContain('unknown key "extra"');
    expect(message).toContain('at decision: expected "approve" or "deny", got string "maybe"');
    expect(message).toMatch(/at timeout_ms: expected an integer from 1 to 2147483647, got number 0/);
    await expect(resumeTestRun({ run_id: runId, decison: 'approve' } as never)).rejects.toThrow(
      'resumeTestRun at decison: unknown key "decison" (did you mean "decision"?)',
    );
    await expect(resumeTestRun({ decision: 'approve' } as never)).rejects.toThrow('missing required key "run_id"');
    // Not taken by the refused answer: it still resumes.
    expect((await resumeTestRun({ run_id: runId, decision: 'approve' })).verdict).toBe('pass');
  });

  it('removes the workspaces of runs left paused when the process exits', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'agentcheck-exit-'));
    try {
      const script = `
        import { testRun } from ${JSON.stringify(join(import.meta.dirname, '../../../dist/src/index.js'))};
        const result = await testRun(${JSON.stringify(gatedWrite)});
        console.log(result.stop_reason);`;
      const child = await execa('node', ['--input-type=module', '-e', script], { env: { TMPDIR: temp }, reject: false });
      expect(child.stdout.trim(), child.stderr).toBe('paused');
      expect(readdirSync(temp).filter((name) => name.startsWith('agentcheck-ws-'))).toEqual([]);
    } finally {
      if (existsSync(temp)) rmSync(temp, { recursive: true, force: true });
    }
  });
});
