import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { executeTestRun, testRun, type TestRunRequest } from '../../src/runner/test-run.js';

const agentFile = join(import.meta.dirname, '../../fixtures/agents/support-bot.yaml');
const inputs = { messages: [{ role: 'user' as const, content: 'Refund order 1234' }] };
/** Looks the order up, then the model never answers again (an hour's delay). */
const stalls = [{ tool_calls: [{ name: 'lookup_order', args: { order_id: '1234' } }] }, { delay_ms: 3_600_000, text: 'too late' }];

describe('test_run wall-clock cap (timeout_ms)', () => {
  it('ends a run whose model never answers as failed, saying it timed out, and keeps the transcript so far', async () => {
    const record = await executeTestRun({ agent: agentFile, inputs, script: stalls, timeout_ms: 300, expectations: { terminal_tool: 'create_refund' } });
    await record.workspace.dispose();
    expect(record.result.stop_reason).toBe('error');
    expect(record.result.verdict).toBe('failed');
    expect(record.result.verdict_reason).toContain('timed out after 300 ms');
    expect(record.turn.error?.type).toBe('TIMEOUT');
    // The lookup happened before the stall: its call and result stay in the transcript and spans.
    expect(record.turn.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(record.result.tools).toEqual([{ name: 'lookup_order', called: 1, returned: 1, errors: 0 }]);
  });

  it('caps the library testRun too, and refuses a timeout_ms that is not a positive whole number', async () => {
    const result = await testRun({ agent: agentFile, inputs, script: stalls, timeout_ms: 300 });
    expect(result).toMatchObject({ stop_reason: 'error', verdict: 'failed' });
    expect(result.verdict_reason).toContain('timed out after 300 ms');
    const refused = await testRun({ agent: agentFile, inputs, script: stalls, timeout_ms: 0 } as TestRunRequest).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).message).toContain('timeout_ms');
  });

  it('stops a scripted run at the cap: no model call and no tool call after it, even when the step that was cut off returned', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'agentcheck-timeout-ws-'));
    const agent = {
      id: 'coder',
      agent: {
        name: 'Coder',
        llm: { provider: 'scripted', model: 'scripted' },
        tools: [
          { name: 'run_command', builtin: 'run_command', permission: 'allow' },
          { name: 'write_file', builtin: 'write_file', permission: 'allow' },
        ],
      },
    };
    // The command outlives the cap and is killed; the scripted model does not watch the signal,
    // so only the engine's own check keeps the write and the answer from happening.
    const script = [
      { tool_calls: [{ name: 'run_command', args: { argv: [process.execPath, '-e', 'setTimeout(() => {}, 60000)'] } }] },
      { tool_calls: [{ name: 'write_file', args: { path: 'after-the-cap.txt', content: 'too late' } }] },
      { text: 'finished' },
    ];
    try {
      const record = await executeTestRun({ agent, inputs, script, timeout_ms: 500, workspace });
      const written = existsSync(join(await record.workspace.root(), 'after-the-cap.txt'));
      await record.workspace.dispose();
      expect(record.result).toMatchObject({ stop_reason: 'error', verdict: 'failed', output: '' });
      expect(record.result.verdict_reason).toContain('TIMEOUT: the run timed out after 500 ms');
      expect(record.result.tools.map((tool) => tool.name)).toEqual(['run_command']);
      expect(record.turn.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expect(written).toBe(false);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  }, 60_000);

  it('cuts short the start of an MCP server that never answers: the cap wins over a long start_timeout_ms, and the server is stopped', async () => {
    const marker = `agentcheck-mute-mcp-${process.pid}-${Date.now()}`;
    const agent = {
      id: 'mute-mcp',
      agent: {
        name: 'Mute MCP',
        llm: { provider: 'scripted', model: 'scripted' },
        // Ten minutes to start: without the cap reaching the start, this test would hit its own timeout.
        mcps: [{ name: 'mute', command: [process.execPath, '-e', `setInterval(() => {}, 1000) // ${marker}`], start_timeout_ms: 600_000 }],
      },
    };
    const result = await testRun({ agent, inputs, script: [{ text: 'never asked' }], timeout_ms: 500 });
    expect(result).toMatchObject({ stop_reason: 'error', verdict: 'failed', resolved: null });
    expect(result.verdict_reason).toContain('TIMEOUT: the run timed out after 500 ms');
    const { stdout } = await execa('ps', ['-eo', 'args']);
    expect(stdout).not.toContain(marker);
  }, 90_000);

  it("does not wait out a chain's retry backoff past the cap", async () => {
    const agent = {
      id: 'backoff',
      agent: {
        name: 'Backoff',
        llm: { provider: 'scripted', model: 'scripted' },
        tools: [
          { name: 'failer', description: 'Fails.', parameters: { type: 'object' }, command: { argv: [process.execPath, '-e', 'process.exit(3)'] } },
          // Ten minutes between tries: a run that waited for it would hit this test's own timeout.
          {
            name: 'retrying',
            description: 'Retries.',
            parameters: { type: 'object' },
            chain: { steps: [{ id: 'a', tool: 'failer', on_failure: { action: 'retry', max_retries: 3, backoff_ms: 600_000 } }] },
          },
        ],
      },
    };
    const result = await testRun({ agent, inputs, script: [{ tool_calls: [{ name: 'retrying', args: {} }] }, { text: 'done' }], timeout_ms: 500 });
    expect(result).toMatchObject({ stop_reason: 'error', verdict: 'failed' });
    expect(result.verdict_reason).toContain('TIMEOUT: the run timed out after 500 ms');
  }, 90_000);

  describe('a real provider endpoint that never responds', () => {
    const server = setupServer(http.post('https://llm.test/v1/chat/completions', () => new Promise<never>(() => undefined)));
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    it('is cut off at the cap with the timed-out reason', async () => {
      const result = await testRun({
        agent: { id: 'slow', agent: { name: 'Slow', llm: { provider: 'openai', model: 'gpt-x', base_url: 'https://llm.test/v1' }, tools: [] } },
        inputs,
        env: { OPENAI_API_KEY: 'sk-test' },
        timeout_ms: 300,
      });
      expect(result).toMatchObject({ stop_reason: 'error', verdict: 'failed' });
      expect(result.verdict_reason).toContain('timed out after 300 ms');
    });
  });
});
