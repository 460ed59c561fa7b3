import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectAgentcheck, rawAgentcheck, text } from './mcp-client.js';

const refund = {
  agent: 'fixtures/agents/support-bot.yaml',
  inputs: { messages: [{ role: 'user', content: 'Refund order 1234, it arrived broken.' }] },
  expectations: { terminal_tool: 'create_refund' },
  script: [{ tool_calls: [{ name: 'create_refund', args: { order_id: '1234', reason: 'damaged' } }] }, { text: 'Refund created.' }],
};
const URL = 'https://shop.test/refunds';

describe('agentcheck mcp: delays and time limits past what Node timers hold', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists every delay_ms and timeout_ms with its bounds, so a model sees the limit', async () => {
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema as Record<string, any>;
    // A schema listed twice is listed once and referred to ({$ref: "#/properties/..."}).
    const resolved = (root: Record<string, any>, schema: Record<string, any>) =>
      schema.$ref
        ? (schema.$ref as string)
            .slice(2)
            .split('/')
            .reduce((at, key) => at[key], root)
        : schema;
    const testRun = schemaOf('test_run').properties;
    const limit = { type: 'integer', maximum: 2147483647 };
    expect(testRun.script.items.properties.delay_ms).toMatchObject({ ...limit, minimum: 0 });
    expect(testRun.mocks.properties.http.items.properties.delay_ms).toMatchObject({ ...limit, minimum: 0 });
    expect(resolved(schemaOf('test_run'), testRun.mocks.properties.http.items.properties.responses.items.properties.delay_ms)).toMatchObject({
      ...limit,
      minimum: 0,
    });
    expect(testRun.timeout_ms).toMatchObject({ ...limit, minimum: 1 });
    expect(schemaOf('resume_run').properties.timeout_ms).toMatchObject({ ...limit, minimum: 1 });
  });

  it('refuses a mock delay_ms over 2147483647 in the words testRun and a --mocks file use, instead of running it as 1 ms', async () => {
    const cases: Array<[unknown, string]> = [
      [{ http: [{ url: URL, json: {}, delay_ms: 2147483648 }] }, 'got number 2147483648 at mocks.http[0].delay_ms'],
      [{ http: [{ url: URL, responses: [{ json: {} }, { json: {}, delay_ms: 1e15 }] }] }, 'got number 1000000000000000 at mocks.http[0].responses[1].delay_ms'],
    ];
    for (const [mocks, where] of cases) {
      const result = await call(client, 'test_run', { ...refund, mocks });
      expect(result.isError, text(result)).toBe(true);
      expect(text(result)).toContain(`expected a number <= 2147483647, ${where}`);
    }
    // The limit itself is a delay a timer holds: accepted (the run is capped at once by its own timeout_ms).
    const atLimit = await call(client, 'test_run', { ...refund, mocks: { http: [{ url: URL, json: {}, delay_ms: 2147483647 }] }, timeout_ms: 1 });
    expect(atLimit.isError, text(atLimit)).toBeFalsy();
    expect(atLimit.structuredContent).toMatchObject({ verdict: 'failed', verdict_reason: expect.stringContaining('TIMEOUT') });
  });

  it("refuses a script entry's delay_ms and a timeout_ms over the limit the same way", async () => {
    const script = await call(client, 'test_run', { ...refund, script: [{ text: 'ok', delay_ms: 2147483648 }] });
    // The script is held to the script rules, located as testRun locates it (arguments at PATH: ...).
    expect(text(script)).toContain('arguments at script[0].delay_ms: expected a number <= 2147483647, got number 2147483648');
    const timeout = await call(client, 'test_run', { ...refund, timeout_ms: 2147483648 });
    expect(text(timeout)).toContain('expected a number <= 2147483647, got number 2147483648 at timeout_ms');
    const resume = await call(client, 'resume_run', { run_id: 'x', decision: 'approve', timeout_ms: 0 });
    expect(text(resume)).toContain('expected a number >= 1, got number 0 at timeout_ms');
  });

  it('names a number JSON text cannot hold (1e400 parses as Infinity) as Infinity, not as a float or null', async () => {
    const server = await rawAgentcheck();
    try {
      const answer = await server.callTool('test_run', `${JSON.stringify(refund).slice(0, -1)}, "timeout_ms": 1e400}`);
      expect(answer.result?.isError, JSON.stringify(answer)).toBe(true);
      expect(answer.result.content[0].text).toContain('expected integer, got number Infinity at timeout_ms');
    } finally {
      await server.close();
    }
  });
});
