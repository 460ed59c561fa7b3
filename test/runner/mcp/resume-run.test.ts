import { readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../e2e/cli.js';
import { gatedWrite, twoGatedWrites } from '../../helpers/gated-write.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { call, connectAgentcheck, text } from './mcp-client.js';

describe('MCP pause -> resume_run (the built CLI over stdio, the SDK client)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  async function pause(): Promise<string> {
    const paused = await call(client, 'test_run', gatedWrite);
    expect(paused.isError, text(paused)).toBeFalsy();
    const result = paused.structuredContent as Record<string, unknown>;
    expect(result).toMatchObject({ stop_reason: 'paused', verdict: 'incomplete', approvals: [{ tool: 'write_file', decision: 'pending' }] });
    expect(result.run_id).toEqual(expect.any(String));
    return result.run_id as string;
  }

  it("approve: the write lands in the paused run's workspace and the run passes", async () => {
    const runId = await pause();
    const resumed = await call(client, 'resume_run', { run_id: runId, decision: 'approve' });
    expect(resumed.isError, text(resumed)).toBeFalsy();
    const result = resumed.structuredContent as Record<string, unknown>;
    expect(result).toMatchObject({ stop_reason: 'end_turn', verdict: 'pass', output: 'Done.', approvals: [{ tool: 'write_file', decision: 'approve' }] });
    expect(result.run_id).toBeUndefined();
    expect(result.tools).toEqual([
      { name: 'write_file', called: 1, returned: 1, errors: 0 },
      { name: 'read_file', called: 1, returned: 1, errors: 0 },
    ]);
    // The resumed run's spans are queryable like any test_run's.
    const spans = await call(client, 'query_spans', {
      trace_id: result.trace_id,
      filtering: { field: 'name', operator: 'eq', value: 'execute_tool read_file' },
    });
    expect(JSON.stringify(spans.structuredContent)).toContain('fixed add()');
    // A pause is answered once.
    const again = await call(client, 'resume_run', { run_id: runId, decision: 'approve' });
    expect(again.isError).toBe(true);
    expect(text(again)).toContain(`UNKNOWN_RUN: no paused run ${runId}`);
  });

  it('deny: the workspace is unchanged (the read finds no file) and the verdict says so', async () => {
    const runId = await pause();
    const resumed = await call(client, 'resume_run', { run_id: runId, decision: 'deny' });
    expect(resumed.isError, text(resumed)).toBeFalsy();
    const result = resumed.structuredContent as Record<string, unknown>;
    expect(result).toMatchObject({ stop_reason: 'end_turn', verdict: 'failed', approvals: [{ tool: 'write_file', decision: 'deny' }] });
    expect(result.tools).toEqual([
      { name: 'write_file', called: 1, returned: 0, errors: 0 },
      { name: 'read_file', called: 1, returned: 0, errors: 1 },
    ]);
    expect(result.verdict_reason).toMatch(/^tool read_file failed: file_not_found \(no such file or directory: CHANGELOG.md/);
  });

  it('lists every decision of the whole run after a second pause', async () => {
    const twoWrites = twoGatedWrites;
    const paused = await call(client, 'test_run', twoWrites);
    const first = (paused.structuredContent as { run_id: string }).run_id;
    const again = await call(client, 'resume_run', { run_id: first, decision: 'approve' });
    const second = again.structuredContent as { run_id: string; approvals: unknown };
    expect(second.approvals).toEqual([
      { tool: 'write_file', decision: 'approve' },
      { tool: 'write_file', decision: 'pending' },
    ]);
    const done = await call(client, 'resume_run', { run_id: second.run_id, decision: 'deny' });
    expect(done.isError, text(done)).toBeFalsy();
    expect((done.structuredContent as { approvals: unknown }).approvals).toEqual([
      { tool: 'write_file', decision: 'approve' },
      { tool: 'write_file', decision: 'deny' },
    ]);
  });

  it('refuses a decision other than approve or deny', async () => {
    const bad = await call(client, 'resume_run', { run_id: 'x', decision: 'maybe' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/decision/);
  });

  it('caps a test_run at timeout_ms: a model that never answers comes back failed, saying it timed out', async () => {
    const capped = await call(client, 'test_run', {
      ...gatedWrite,
      script: [{ delay_ms: 3_600_000, text: 'too late' }],
      timeout_ms: 300,
    });
    expect(capped.isError, text(capped)).toBeFalsy();
    expect(capped.structuredContent).toMatchObject({ stop_reason: 'error', verdict: 'failed' });
    expect((capped.structuredContent as { verdict_reason: string }).verdict_reason).toContain('timed out after 300 ms');
  });
});

describe('MCP resume_run of a paused run whose temp workspace was replaced by a symbolic link', () => {
  it('ends the run WORKSPACE_NOT_FOUND saying what it found, spends no approval there, and forgets the run', async () => {
    // The server makes the paused run's workspace under a temporary folder of this test's own.
    const tmp = tempDir();
    const elsewhere = tempDir();
    const client = await connectAgentcheck(ROOT, { TMPDIR: tmp });
    try {
      const paused = await call(client, 'test_run', gatedWrite);
      const runId = (paused.structuredContent as { run_id: string }).run_id;
      const [made] = readdirSync(tmp).filter((name) => name.startsWith('agentcheck-ws-'));
      rmSync(join(tmp, made), { recursive: true });
      symlinkSync(elsewhere, join(tmp, made));
      const resumed = await call(client, 'resume_run', { run_id: runId, decision: 'approve' });
      expect(resumed.isError, text(resumed)).toBeFalsy();
      const result = resumed.structuredContent as { verdict_reason: string; run_id?: string };
      expect(result).toMatchObject({ stop_reason: 'error', verdict: 'failed', tools: [{ name: 'write_file', called: 1, returned: 0, errors: 0 }] });
      expect(result.verdict_reason).toContain(
        `WORKSPACE_NOT_FOUND: the run's workspace folder ${join(tmp, made)} is a symbolic link now (to ${elsewhere}), not the folder the run worked in`,
      );
      expect(result.run_id).toBeUndefined();
      expect(readdirSync(elsewhere)).toEqual([]);
      const again = await call(client, 'resume_run', { run_id: runId, decision: 'approve' });
      expect(text(again)).toContain(`UNKNOWN_RUN: no paused run ${runId}`);
    } finally {
      await client.close();
    }
  });
});
