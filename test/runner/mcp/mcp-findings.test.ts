import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectAgentcheck, text } from './mcp-client.js';

const refund = {
  agent: 'fixtures/agents/support-bot.yaml',
  inputs: { messages: [{ role: 'user', content: 'Refund order 1234, it arrived broken.' }] },
  expectations: { terminal_tool: 'create_refund' },
  mocks: { http: [{ method: 'POST', url: 'https://shop.test/refunds', json: { ok: true, id: 'r1' } }] },
  script: [{ tool_calls: [{ name: 'create_refund', args: { order_id: '1234', reason: 'damaged' } }] }, { text: 'Refund created.' }],
};

describe('agentcheck mcp: schemas and arguments held as the CLI holds them', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it("describes validate's problems as every problem, as it returns them", async () => {
    const { tools } = await client.listTools();
    const validate = tools.find((tool) => tool.name === 'validate');
    const problems = (validate?.outputSchema?.properties as Record<string, { description?: string }>).problems;
    expect(problems.description).toMatch(/every problem of every invalid file/);
    expect(problems.description).not.toContain('first problem');
  });

  it('describes the verdict order, terminal_tool names and approval answers as docs/verdicts.md and docs/formats.md say', async () => {
    const { tools } = await client.listTools();
    const testRun = tools.find((tool) => tool.name === 'test_run');
    const description = testRun?.description ?? '';
    // A tool error is named before the run's own error (a script that ran out after it), and after a cut-off run.
    const order = [
      'timed out or was aborted -> failed',
      'any tool error -> failed',
      'invoke errored (e.g. SCRIPT_EXHAUSTED) -> failed',
      'no expectations.terminal_tool',
    ];
    const at = order.map((words) => description.indexOf(words));
    expect(at, description).not.toContain(-1);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(description).toContain('"tool <name> failed: ...", also when the run then errored');
    // docs/verdicts.md, the tool-error row: an external agent's unanswered calls are its failure's symptom.
    expect(description).toContain('a call an external agent left unanswered when it failed or timed out is not a tool error');
    // As the product decides: a call refused for its arguments, then a script with no entry left.
    const run = await call(client, 'test_run', { ...refund, script: [{ tool_calls: [{ name: 'lookup_order', args: {} }] }] });
    expect(run.structuredContent).toMatchObject({
      stop_reason: 'error',
      verdict: 'failed',
      verdict_reason: expect.stringMatching(/^tool lookup_order failed: /),
    });
    const properties = testRun?.inputSchema.properties as Record<string, any>;
    const terminal = properties.expectations.properties.terminal_tool.description as string;
    expect(terminal).not.toMatch(/prefixes are ignored/);
    expect(terminal).toContain("a name written with its mcp__<server>__ prefix only that server's tool");
    expect(properties.approvals.properties.tools.description).toContain('"approve", "deny" or "reject" (the same as deny)');
  });

  it('takes a mock method in either case, as a scenario and --mocks do', async () => {
    const result = await call(client, 'test_run', { ...refund, mocks: { http: [{ method: 'post', url: 'https://shop.test/refunds', json: { ok: true } }] } });
    expect(result.isError, text(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ verdict: 'pass' });
  });

  it('refuses a mock method in mixed case with a did-you-mean, as a scenario file does', async () => {
    const result = await call(client, 'test_run', { ...refund, mocks: { http: [{ method: 'Post', url: 'https://shop.test/refunds', json: { ok: true } }] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      'expected one of "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "get" | "post" | "put" | "patch" | "delete" | "head" | "options", got string "Post" (did you mean "POST"?) at mocks.http[0].method',
    );
  });

  it('refuses load_skill saying an MCP test_run delivers skills inline (it has no skills argument) and where load_skill can be tested', async () => {
    const result = await call(client, 'test_run', { ...refund, expectations: { terminal_tool: 'load_skill' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      'at expectations.terminal_tool: "load_skill" is offered only when skills are delivered on demand; an MCP test_run delivers skills inline (it has no skills argument), so it is never offered; test load_skill in a scenario',
    );
  });

  it('refuses an empty or blank message, as the CLI refuses an empty --message', async () => {
    const inputs = { messages: [{ role: 'user', content: ' ' }] };
    const result = await call(client, 'test_run', { ...refund, inputs });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('invalid input: arguments at inputs.messages[0].content: the message is empty; give the message text');
  });

  it('refuses arguments nested more than 100 levels, with their path, as the CLI refuses such files', async () => {
    const deep = (levels: number): unknown => (levels === 0 ? 1 : { a: deep(levels - 1) });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { delta: { set: { agent: { tools: [{ name: 'x', description: 'd', returns: deep(150) }] } } } },
        /^invalid input: arguments at delta\.set\.agent\.tools\[0\]\.returns\.a\.a/,
      ],
      [
        { script: [{ tool_calls: [{ name: 'lookup_order', args: deep(3000) }] }, { text: 'x' }] },
        /^invalid input: arguments at script\[0\]\.tool_calls\[0\]\.args\.a\.a/,
      ],
      [{ inputs: { messages: refund.inputs.messages, context: deep(3000) } }, /^invalid input: arguments at inputs\.context\.a\.a/],
    ];
    for (const [args, where] of cases) {
      const result = await call(client, 'test_run', { ...refund, ...args });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(where);
      expect(text(result)).toMatch(/: is nested more than 100 levels deep; agentcheck refuses values beyond that$/);
    }
    // query_spans' filtering too, before its recursive schema walks it (it overflowed the stack).
    const group = (levels: number): unknown =>
      levels === 0 ? { field: 'name', operator: 'eq', value: 'x' } : { operator: 'and', conditions: [group(levels - 1)] };
    const query = await call(client, 'query_spans', { filtering: group(1000) });
    expect(query.isError).toBe(true);
    expect(text(query)).toContain('is nested more than 100 levels deep');
    expect(text(query)).not.toContain('Maximum call stack');
  });
});
