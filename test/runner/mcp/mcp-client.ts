import { existsSync } from 'node:fs';
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
