import { join } from 'node:path';
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
