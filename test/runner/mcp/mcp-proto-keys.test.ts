import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { ROOT, runCli } from '../../e2e/cli.js';
import { call, connectAgentcheck, text } from './mcp-client.js';

const AGENT = 'fixtures/agents/support-bot.yaml';
const base = { agent: AGENT, inputs: { messages: [{ role: 'user', content: 'Refund order 1234.' }] }, script: [{ text: 'ok' }] };
/** Arguments as a client's JSON holds them: JSON.parse keeps `__proto__` as an own key, as the server reads it. */
const sent = (json: string): Record<string, unknown> => ({ ...base, ...(JSON.parse(json) as Record<string, unknown>) });
const withProto = (json: string): Record<string, unknown> => Object.assign(JSON.parse(json) as Record<string, unknown>, base);

describe('agentcheck mcp: a __proto__ key in the arguments reaches the refusal the CLI gives it, never dropped', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('in delta.set: refused at set.__proto__ in the words of test-run --delta, nothing runs', async () => {
    const result = await call(client, 'test_run', sent('{"delta": {"set": {"__proto__": {"agent": {"max_turns": 2}}}}}'));
    expect(result.isError, text(result)).toBe(true);
    expect(text(result)).toBe(
      'invalid input: arguments.delta at set.__proto__: a key named "__proto__" cannot be set: it would replace the prototype of the object, not set a field',
    );
    const dir = tempDir({ 'delta.yaml': 'set: {__proto__: {agent: {max_turns: 2}}}\n', 'script.yaml': '- text: ok\n' });
    const cli = await runCli(['test-run', '--agent', join(ROOT, AGENT), '--message', 'hi', '--script', 'script.yaml', '--delta', 'delta.yaml'], dir);
    expect(cli.exitCode).toBe(2);
    expect(cli.stderr).toContain('at set.__proto__: a key named "__proto__" cannot be set: it would replace the prototype of the object, not set a field');
  });

  it('in approvals.tools and an inline build: refused as the CLI and testRun refuse them', async () => {
    const approvals = await call(client, 'test_run', sent('{"approvals": {"tools": {"__proto__": "deny"}}}'));
    expect(approvals.isError).toBe(true);
    expect(text(approvals)).toMatch(
      /^invalid input: arguments at approvals\.tools\.__proto__: "__proto__" names no tool of the agent; expected one of: lookup_order, /,
    );
    const inline = await call(client, 'test_run', sent('{"agent": {"id": "a", "agent": {"name": "A"}, "__proto__": {"x": 1}}}'));
    expect(inline.isError).toBe(true);
    expect(text(inline)).toMatch(/^invalid input: arguments\.agent at __proto__: unknown key "__proto__"/);
  });

  it('at the top level: refused by every tool as any unknown argument is', async () => {
    const unknown = await call(client, 'test_run', { ...base, expectations2: 1 });
    expect(text(unknown)).toBe('MCP error -32602: Input validation error: Invalid arguments for tool test_run: Unrecognized key(s) in object: "expectations2"');
    const proto = await call(client, 'test_run', withProto('{"__proto__": {"agent": "x"}}'));
    expect(proto.isError).toBe(true);
    expect(text(proto)).toBe('MCP error -32602: Input validation error: Invalid arguments for tool test_run: Unrecognized key(s) in object: "__proto__"');
    const validate = await call(client, 'validate', Object.assign(JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>, { paths: [AGENT] }));
    expect(validate.isError).toBe(true);
    expect(text(validate)).toBe('MCP error -32602: Input validation error: Invalid arguments for tool validate: Unrecognized key(s) in object: "__proto__"');
  });

  it("in a flow's inputs.context: kept as a key of the context, as test-run --inputs keeps it, and the server stays unpolluted", async () => {
    const flow = {
      id: 'f',
      agent: { name: 'F' },
      flow: {
        entry_point: 's',
        components: [{ name: 's', type: 'deterministic_step', tool_name: 'echo', inputs: [{ literal: 'hi', as: 'text' }] }],
        routers: [{ from: 's', to: 'end' }],
      },
    };
    const inputs = JSON.parse('{"messages": [{"role": "user", "content": "hi"}], "context": {"__proto__": {"x": 1}, "a": 2}}') as unknown;
    const result = await call(client, 'test_run', { agent: flow, inputs });
    expect(result.isError, text(result)).toBeFalsy();
    const trace = (result.structuredContent as { trace_id: string }).trace_id;
    const root = await call(client, 'query_spans', { trace_id: trace, filtering: { field: 'parent_id', operator: 'not_exists' } });
    const state = JSON.parse((root.structuredContent as { spans: Array<{ attributes: Record<string, string> }> }).spans[0].attributes['agentcheck.flow.state']);
    expect(JSON.stringify(state.context)).toBe('{"__proto__":{"x":1},"a":2,"goal":"hi","s":{"tool_result":"hi","error":null}}');
    // The arguments as sent are read for every call, not only those with such a key.
    const plain = await call(client, 'test_run', { ...base, delta: { set: { agent: { max_turns: 2 } } } });
    expect(plain.structuredContent).toMatchObject({ verdict: 'unconfirmed', resolved: { max_turns: 2 } });
  });
});
