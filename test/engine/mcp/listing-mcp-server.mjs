// An MCP server whose tools/list answer is the JSON given on its command line, as written (`node
// listing-mcp-server.mjs '[{"name":"ok","inputSchema":{"type":"object"}}]'`), malformed entries
// included, for tests of how a listing the SDK's schema refuses is read. Every call answers
// `called <name>`; a tool named `no_structure` answers without structuredContent, `bad_structure`
// with structuredContent `{"n": "one"}`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const tools = JSON.parse(process.argv[2] ?? '[]');
const server = new Server({ name: 'listing', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
  const content = [{ type: 'text', text: `called ${params.name}` }];
  if (params.name === 'bad_structure') return { content, structuredContent: { n: 'one' } };
  if (params.name === 'no_structure') return { content };
  return { content, structuredContent: { n: 1 } };
});
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => process.exit(0));
