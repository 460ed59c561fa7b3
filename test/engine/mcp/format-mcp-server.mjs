// An MCP server whose tool schema is raw JSON Schema with formats, one of them unknown to the
// harness (`made-up`), as a server may send. `contact` answers with the arguments it got.
// Run with `node format-mcp-server.mjs`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'formats', version: '1.0.0' }, { capabilities: { tools: {} } });
const inputSchema = {
  type: 'object',
  properties: { email: { type: 'string', format: 'email' }, code: { type: 'string', format: 'made-up' } },
  required: ['email'],
};
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'contact', description: 'Contact someone.', inputSchema }] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `got ${JSON.stringify(request.params.arguments)}` }] }));
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => process.exit(0));
