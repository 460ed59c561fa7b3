import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, ROOT } from '../../e2e/cli.js';

/** Starts the built CLI's `agentcheck mcp` in `cwd` (with `env` added to the SDK's default environment) and connects the SDK's own client to it. */
export async function connectAgentcheck(cwd = ROOT, env: Record<string, string> = {}): Promise<Client> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first (npm test does it)`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    cwd,
    stderr: 'pipe',
    env: { ...getDefaultEnvironment(), ...env },
  });
  const client = new Client({ name: 'agentcheck-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its result in the current (content) shape. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a tool result. */
export function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** An initialized `agentcheck mcp` spoken to in raw JSON-RPC lines: text the SDK's client would never send (`1e400`). */
export interface RawAgentcheck {
  /** Sends `arguments` (JSON text, as written) to tool `name` and resolves with the JSON-RPC answer. */
  callTool(name: string, argumentsText: string): Promise<Record<string, any>>;
  /** Sends a call of tool `name` and its cancellation in one write (a client that changed its mind at once). */
  cancelledCall(name: string, argumentsText: string): void;
  /** Closes stdin (the client going away) and resolves with the server's exit. */
  close(): Promise<{ exitCode?: number; stderr: string }>;
}

/** Starts the built CLI's `agentcheck mcp` in `cwd` (with `env` added) and initializes it over raw stdio lines. */
export async function rawAgentcheck(cwd = ROOT, env: Record<string, string> = {}): Promise<RawAgentcheck> {
  const server = execa(process.execPath, [CLI, 'mcp'], { cwd, env, reject: false, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  const waiting = new Map<number, (answer: Record<string, any>) => void>();
  createInterface({ input: server.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as Record<string, any>;
    waiting.get(answer.id as number)?.(answer);
  });
  let next = 1;
  const request = (method: string, paramsText: string) =>
    new Promise<Record<string, any>>((answered) => {
      const id = next++;
      waiting.set(id, answered);
      server.stdin.write(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${paramsText}}\n`);
    });
  await request('initialize', JSON.stringify({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }));
  server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    callTool: (name, argumentsText) => request('tools/call', `{"name":${JSON.stringify(name)},"arguments":${argumentsText}}`),
    cancelledCall: (name, argumentsText) => {
      const id = next++;
      server.stdin.write(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsText}}}\n` +
          `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'changed my mind' } })}\n`,
      );
    },
    close: async () => {
      server.stdin.end();
      const { exitCode, stderr } = await server;
      return { exitCode, stderr: String(stderr) };
    },
  };
}

/** The README's refund test_run (support-bot, scripted, the refund POST mocked), for tests that need one run that passes. */
export const REFUND_REQUEST = {
  agent: 'fixtures/agents/support-bot.yaml',
  inputs: { messages: [{ role: 'user', content: 'Refund order 1234, it arrived broken.' }] },
  expectations: { terminal_tool: 'create_refund' },
  mocks: { http: [{ method: 'POST', url: 'https://shop.test/refunds', json: { ok: true, id: 'r1' } }] },
  script: [
    { tool_calls: [{ name: 'lookup_order', args: { order_id: '1234' } }] },
    { tool_calls: [{ name: 'create_refund', args: { order_id: '1234', reason: 'damaged' } }] },
    { text: 'Refund created.' },
  ],
};
