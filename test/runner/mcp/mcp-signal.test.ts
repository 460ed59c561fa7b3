import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../../e2e/cli.js';
import { isRunning } from '../../helpers/process-state.js';
import { call } from './mcp-client.js';

describe('agentcheck mcp stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s removes the workspaces of the runs it kept paused, then exits', async (signal) => {
    const temp = mkdtempSync(join(tmpdir(), 'agentcheck-mcp-signal-'));
    try {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp'],
        cwd: ROOT,
        stderr: 'pipe',
        env: { ...(process.env as Record<string, string>), TMPDIR: temp },
      });
      const client = new Client({ name: 'agentcheck-test', version: '1.0.0' });
      await client.connect(transport);
      const paused = await call(client, 'test_run', {
        agent: 'fixtures/agents/coding-agent.yaml',
        workspace: 'fixtures/workspaces/coding',
        inputs: { messages: [{ role: 'user', content: 'Write the changelog.' }] },
        script: [{ tool_calls: [{ name: 'write_file', args: { path: 'CHANGELOG.md', content: 'x' } }] }, { text: 'Done.' }],
      });
      expect(paused.structuredContent).toMatchObject({ stop_reason: 'paused' });
      expect(readdirSync(temp).filter((name) => name.startsWith('agentcheck-ws-'))).toHaveLength(1);
      const pid = transport.pid as number;
      process.kill(pid, signal);
      while (isRunning(pid)) await new Promise((done) => setTimeout(done, 50));
      expect(readdirSync(temp).filter((name) => name.startsWith('agentcheck-ws-'))).toEqual([]);
      await client.close().catch(() => undefined);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
