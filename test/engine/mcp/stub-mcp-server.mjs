// A tiny MCP server for tests of MCP toolsets: tools that answer, fail, hang, crash and show
// their environment. Run with `node stub-mcp-server.mjs`.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'stub', version: '1.0.0' });

server.registerTool(
  'echo',
  {
    description: 'Echo the text back.',
    inputSchema: { text: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ text }) => ({
    content: [
      { type: 'text', text: `echo: ${text}` },
      { type: 'text', text: `pid ${process.pid}` },
    ],
  }),
);

server.registerTool(
  'fail',
  {
    description: 'Always fails.',
    inputSchema: {},
  },
  async () => ({ content: [{ type: 'text', text: 'the stub refuses' }], isError: true }),
);

server.registerTool(
  'hang',
  {
    description: 'Never answers.',
    inputSchema: {},
  },
  () => new Promise(() => {}),
);

server.registerTool(
  'crash',
  {
    description: 'Exits the server process.',
    inputSchema: {},
  },
  async () => process.exit(3),
);

server.registerTool(
  'env',
  {
    description: 'The names of the environment variables the server got.',
    inputSchema: {},
    outputSchema: { names: z.array(z.string()) },
  },
  async () => {
    const names = Object.keys(process.env)
      .filter((name) => !name.startsWith('npm_'))
      .sort();
    return { content: [{ type: 'text', text: names.join(',') }], structuredContent: { names } };
  },
);

await server.connect(new StdioServerTransport());
// STUB_EVENTS_FILE: record how the server is asked to stop, and linger after stdin closes (like a
// server still busy with a call) so that only a signal ends it.
const events = process.env.STUB_EVENTS_FILE;
if (events) {
  process.stdin.once('end', () => {
    appendFileSync(events, 'stdin-end\n');
    setInterval(() => {}, 1000);
  });
  process.once('SIGTERM', () => {
    appendFileSync(events, 'SIGTERM\n');
    process.exit(0);
  });
} else process.stdin.once('end', () => process.exit(0));
