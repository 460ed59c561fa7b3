import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cassette } from '../../../src/runner/cassettes/cassette.js';
import { cassettePath } from '../../../src/runner/cassettes/cassette-path.js';
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
          return send(400, {
            type: 'error',
            error: { type: 'invalid_request_error', message: `messages.${index * 2 + 1}.content.0: expected thinking or redacted_thinking` },
          });
        }
      }
      counter++;
      const thought = `Step ${assistants.length + 1}: decide the next action.`;
      const signature = `EqQBCkgIARABGAIiQL${counter}${Date.now()}Signature==`;
      issued.set(thought, signature);
      const next =
        assistants.length === 0
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
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${port}`, seen, close };
}

/**
 * The OpenAI Responses API with a reasoning model: each reasoning item it issued must come back
 * (by id) right before the function_call it issued with it, as the real API demands.
 */
async function startResponsesServer() {
  const issued = new Map<string, string>();
  let counter = 0;
  const seen: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: Array<Record<string, unknown>> };
      seen.push(body);
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const input = body.input;
      for (const [index, item] of input.entries()) {
        if (item.type === 'function_call' && issued.get(item.id as string) !== input[index - 1]?.id) {
          return send(400, {
            error: {
              message: `Item '${String(item.id)}' of type 'function_call' was provided without its required 'reasoning' item`,
              type: 'invalid_request_error',
              param: 'input',
              code: null,
            },
          });
        }
      }
      counter++;
      const calls = input.filter((item) => item.type === 'function_call').length;
      const reasoning = { id: `rs_${counter}${Date.now()}`, type: 'reasoning', summary: [] };
      const name = calls === 0 ? 'lookup_order' : 'create_refund';
      const call = {
        type: 'function_call',
        id: `fc_${counter}${Date.now()}`,
        call_id: `call_${counter}`,
        name,
        arguments: '{"order_id":"1234"}',
        status: 'completed',
      };
      issued.set(call.id, reasoning.id);
      const message = {
        type: 'message',
        id: `msg_${counter}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Refund created.', annotations: [] }],
      };
      send(200, {
        id: `resp_${counter}`,
        object: 'response',
        created_at: 1741476542 + counter,
        status: 'completed',
        error: null,
        incomplete_details: null,
        model: 'gpt-test-2025',
        output: calls < 2 ? [reasoning, call] : [reasoning, message],
        usage: {
          input_tokens: 50 + counter,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 12 },
          total_tokens: 70 + counter,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
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

const ANTHROPIC_LLM = (origin: string) =>
  `{provider: anthropic, model: claude-test, base_url: "${origin}", parameters: {max_tokens: 2048, thinking: {type: enabled, budget_tokens: 1024}}}`;
const RESPONSES_LLM = (origin: string) => `{provider: openai-responses, model: gpt-test, base_url: "${origin}/v1", parameters: {reasoning: {effort: low}}}`;

function agentYaml(llm: string): string {
  return `id: shop-bot
agent:
  name: Shop bot
  instructions: You handle refunds. Look the order up first.
  llm: ${llm}
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
  it.each([
    ['an Anthropic thinking', startThinkingServer, ANTHROPIC_LLM, { ANTHROPIC_API_KEY: 'sk-ant-test-secret-0000' }],
    ['an OpenAI Responses reasoning', startResponsesServer, RESPONSES_LLM, { OPENAI_API_KEY: 'sk-test-secret-00000000' }],
  ])('records %s conversation and replays it offline with identical rows', async (_name, start, llm, env) => {
    const live = await start();
    close = live.close;
    const dir = tempDir({ 'agent.yaml': agentYaml(llm(live.origin)), 'refund.scenario.yaml': SCENARIO });
    const cassettes = join(dir, 'cassettes');
    const recorded = await runShopSuite(dir, { mode: 'record', dir: cassettes }, env);
    expect(recorded[0].status, recorded[0].reason).toBe('pass');
    expect(recorded[0].test_run?.output).toBe('Refund created.');
    expect(live.seen).toHaveLength(3);
    // Both APIs' system prompt and transcript sit in the same places of the match key.
    const cassette = JSON.parse(readFileSync(cassettePath(cassettes, 'refund.scenario.yaml#refund', 'base', 0), 'utf8')) as Cassette;
    expect(cassette.interactions[2].match_key).toMatchObject({ system: 'You handle refunds. Look the order up first.', model: expect.any(String) });
    expect(cassette.interactions[2].match_key.messages).toHaveLength('OPENAI_API_KEY' in env ? 7 : 5);

    await live.close();
    const replayed = await runShopSuite(dir, { mode: 'replay', dir: cassettes }, {});
    expect(replayed.map(stableRow)).toEqual(recorded.map(stableRow));
  });
});
