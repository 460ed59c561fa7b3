import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { runShopSuite, stableRow } from './shop-suite.js';

/**
 * A real server playing the Anthropic Messages API with extended thinking. Like the real API it
 * refuses (400) a request whose earlier assistant turns lost their thinking block or changed its
 * signature, and each recording gets new signatures, so a replay must send back exactly the
 * recorded blocks to match its cassette.
 */
async function startThinkingServer() {
  const issued = new Map<string, string>();
  let counter = 0;
  const seen: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: Array<{ role: string; content: unknown }> };
      seen.push(body);
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const assistants = body.messages.filter((message) => message.role === 'assistant');
      for (const [index, message] of assistants.entries()) {
        const first = (message.content as Array<Record<string, unknown>>)[0];
        if (first?.type !== 'thinking' || issued.get(first.thinking as string) !== first.signature) {
          return send(400, { type: 'error', error: { type: 'invalid_request_error', message: `messages.${index * 2 + 1}.content.0: expected thinking or redacted_thinking` } });
        }
      }
      counter++;
      const thought = `Step ${assistants.length + 1}: decide the next action.`;
      const signature = `EqQBCkgIARABGAIiQL${counter}${Date.now()}Signature==`;
      issued.set(thought, signature);
      const next = assistants.length === 0
        ? { type: 'tool_use', id: `toolu_0${counter}`, name: 'lookup_order', input: { order_id: '1234' } }
        : assistants.length === 1
          ? { type: 'tool_use', id: `toolu_0${counter}`, name: 'create_refund', input: { order_id: '1234', reason: 'damaged' } }
          : { type: 'text', text: 'Refund created.' };
      send(200, {
        id: `msg_0${counter}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-test-20250929',
        content: [{ type: 'thinking', thinking: thought, signature }, next],
        stop_reason: next.type === 'tool_use' ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 50 + counter, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return { origin: `http://127.0.0.1:${port}`, seen, close };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

function agentYaml(origin: string): string {
  return `id: shop-bot
agent:
  name: Shop bot
  instructions: You handle refunds. Look the order up first.
  llm: {provider: anthropic, model: claude-test, base_url: "${origin}", parameters: {max_tokens: 2048, thinking: {type: enabled, budget_tokens: 1024}}}
  permissions: {mode: allow}
  tools:
    - name: lookup_order
      description: Look an order up by its id.
      parameters: {type: object, properties: {order_id: {type: string}}, required: [order_id]}
      returns: {status: delivered, damaged: true}
    - name: create_refund
      description: Create a refund.
      parameters: {type: object, properties: {order_id: {type: string}, reason: {type: string}}}
      returns: {ok: true, refund_id: r1}
`;
}

const SCENARIO = `name: refund
agent: agent.yaml
inputs: {messages: [{role: user, content: "Refund order 1234, it arrived broken."}]}
expect:
  terminal_tool: create_refund
  checks:
    - output: {contains: Refund created}
`;

describe('cassettes with reasoning sent back', () => {
  it('records an Anthropic thinking conversation and replays it offline with identical rows', async () => {
    const live = await startThinkingServer();
    close = live.close;
    const dir = tempDir({ 'agent.yaml': agentYaml(live.origin), 'refund.scenario.yaml': SCENARIO });
    const cassettes = join(dir, 'cassettes');
    const recorded = await runShopSuite(dir, { mode: 'record', dir: cassettes }, { ANTHROPIC_API_KEY: 'sk-ant-test-secret-0000' });
    expect(recorded[0].status, recorded[0].reason).toBe('pass');
    expect(recorded[0].test_run?.output).toBe('Refund created.');
    expect(live.seen).toHaveLength(3);

    await live.close();
    const replayed = await runShopSuite(dir, { mode: 'replay', dir: cassettes }, {});
    expect(replayed.map(stableRow)).toEqual(recorded.map(stableRow));
  });
});
