import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectAgentcheck, text } from './mcp-client.js';

const messages = [{ role: 'user', content: 'Refund order 1234.' }];
const UNREAD =
  'a context is read only by a flow (its initial context) or an external agent (sent with the messages), and this agent build has neither, so it would be ignored; put what it says in the messages, or remove it';

describe('agentcheck mcp test_run: inputs.context only where a build reads it', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectAgentcheck();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('refuses a context for an agent build without a flow, at its argument, instead of ignoring it', async () => {
    const result = await call(client, 'test_run', {
      agent: 'fixtures/agents/support-bot.yaml',
      inputs: { messages, context: { order_id: '1234' } },
      script: [{ text: 'done' }],
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(`invalid input: arguments at inputs.context: ${UNREAD}`);
    // An empty context says nothing, so it is no mistake.
    const empty = await call(client, 'test_run', { agent: 'fixtures/agents/support-bot.yaml', inputs: { messages, context: {} }, script: [{ text: 'done' }] });
    expect(empty.isError, text(empty)).toBeFalsy();
  });

  it('gives it to a flow as its initial context and to an external agent with the messages', async () => {
    const flow = await call(client, 'test_run', {
      agent: {
        id: 'echo-flow',
        agent: { name: 'Flow', tools: [{ name: 'echo', description: 'echo', builtin: 'echo' }] },
        flow: {
          entry_point: 'step',
          components: [{ name: 'step', type: 'deterministic_step', tool_name: 'echo', inputs: [{ from: 'context:order_id', as: 'text' }] }],
          routers: [{ from: 'step', to: 'end' }],
        },
      },
      inputs: { messages, context: { order_id: '1234' } },
      expectations: { terminal_tool: 'echo' },
    });
    expect(flow.isError, text(flow)).toBeFalsy();
    expect(flow.structuredContent).toMatchObject({ verdict: 'pass' });
    const printContext =
      "let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>console.log(JSON.stringify({output:JSON.stringify(JSON.parse(s).context)})))";
    const external = await call(client, 'test_run', {
      agent: { id: 'ext', external: { command: ['node', '-e', printContext] } },
      inputs: { messages, context: { order_id: '1234' } },
    });
    expect(external.isError, text(external)).toBeFalsy();
    expect(external.structuredContent).toMatchObject({ output: '{"order_id":"1234"}' });
  });
});
