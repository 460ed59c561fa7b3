import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { executeTestRun } from '../../src/runner/test-run.js';

// Anthropic endpoint faults through msw (in process): the same guarantees as the OpenAI
// faults against the local server, for the other provider's wire format.

const URL = 'https://anthropic.test/v1/messages';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// The model timeout only guards a hang; the test of the per-attempt timeout sets its own.
function agent(llm: Record<string, unknown> = {}) {
  return {
    id: 'msw-bot',
    agent: {
      name: 'msw bot',
      llm: { provider: 'anthropic', model: 'claude-test', base_url: 'https://anthropic.test', timeout_ms: 60_000, ...llm },
      tools: [{ name: 'finish', description: 'Finish.', parameters: { type: 'object' }, returns: { done: true } }],
    },
  };
}

async function run(llm: Record<string, unknown> = {}) {
  const record = await executeTestRun({
    agent: agent(llm),
    inputs: { messages: [{ role: 'user', content: 'go' }] },
    expectations: { terminal_tool: 'finish' },
    env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
  });
  await record.workspace.dispose();
  return record;
}

const toolUse = {
  id: 'msg_1',
  model: 'claude-test',
  stop_reason: 'tool_use',
  content: [{ type: 'tool_use', id: 'tu_1', name: 'finish', input: {} }],
  usage: { input_tokens: 3, output_tokens: 1 },
};
const endTurn = {
  id: 'msg_2',
  model: 'claude-test',
  stop_reason: 'end_turn',
  content: [{ type: 'text', text: 'done' }],
  usage: { input_tokens: 3, output_tokens: 1 },
};

describe('model endpoint faults (msw, anthropic)', () => {
  it('rides out a 429 storm with Retry-After and passes', async () => {
    let calls = 0;
    server.use(
      http.post(URL, () => {
        calls++;
        if (calls <= 3)
          return HttpResponse.json(
            { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
            { status: 429, headers: { 'retry-after': '0' } },
          );
        return HttpResponse.json(calls === 4 ? toolUse : endTurn);
      }),
    );
    const { result, turn } = await run();
    expect(turn.error).toBeUndefined();
    expect(result.verdict).toBe('pass');
    expect(calls).toBe(5);
  });

  it('gives up on a persistent 529 overload with a typed error', async () => {
    let calls = 0;
    server.use(
      http.post(URL, () => {
        calls++;
        return HttpResponse.json(
          { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
          { status: 529, headers: { 'retry-after-ms': '1' } },
        );
      }),
    );
    const { result, turn } = await run({ max_retries: 2 });
    expect(calls).toBe(3);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error).toEqual({ type: 'MODEL_RETRIES_EXHAUSTED', message: expect.stringContaining('failed after 3 attempts: last HTTP 529: Overloaded') });
    expect(result.verdict).toBe('failed');
  });

  it('reports network errors, malformed bodies and broken tool_use blocks', async () => {
    server.use(http.post(URL, () => HttpResponse.error()));
    expect((await run({ max_retries: 0 })).turn.error?.type).toBe('MODEL_RETRIES_EXHAUSTED');

    server.use(http.post(URL, () => HttpResponse.json({ content: 'not an array' })));
    expect((await run()).turn.error).toEqual({ type: 'MODEL_BAD_RESPONSE', message: expect.stringContaining('response has no content array') });

    server.use(http.post(URL, () => HttpResponse.json({ ...toolUse, content: [{ type: 'tool_use', name: 'finish', input: {} }] })));
    expect((await run()).turn.error).toEqual({ type: 'MODEL_BAD_RESPONSE', message: expect.stringContaining('a tool_use block lacks id or name') });

    server.use(http.post(URL, () => new HttpResponse('{"content": [{"type": "te', { status: 200, headers: { 'content-type': 'application/json' } })));
    expect((await run()).turn.error).toEqual({ type: 'MODEL_BAD_RESPONSE', message: expect.stringContaining('response body is not JSON') });
  });

  it('times out a stalled endpoint per attempt', async () => {
    server.use(http.post(URL, () => new Promise<never>(() => undefined)));
    // The handler never answers: only the per-attempt timeout can end this run.
    const { turn } = await run({ timeout_ms: 150, max_retries: 0 });
    expect(turn.error).toEqual({ type: 'MODEL_TIMEOUT', message: expect.stringContaining('the last attempt timed out') });
  });
});
