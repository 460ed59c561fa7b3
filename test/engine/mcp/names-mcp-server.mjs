// An MCP server offering one tool per name given on its command line (`node names-mcp-server.mjs
// a.b a_b`), for tests of how tool names are mapped to mcp__<server>__<tool>. Each answers with
// its own name.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const names = process.argv.slice(2);
const server = new Server({ name: 'names', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: names.map((name) => ({ name, description: `The tool ${name}.`, inputSchema: { type: 'object' } })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }));
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => process.exit(0));
