// An MCP server offering one tool per name given on its command line (`node names-mcp-server.mjs
// a.b a_b`), for tests of how tool names are mapped to mcp__<server>__<tool>. Each answers with
// its own name. `name(a,b)` offers a tool taking exactly the string arguments a and b
// (additionalProperties: false); a plain name takes any object.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const specs = process.argv.slice(2).map((arg) => /^([^(]+)\(([^)]*)\)$/.exec(arg) ?? [arg, arg, undefined]);
const schemaOf = (params) =>
  params === undefined
    ? { type: 'object' }
    : {
        type: 'object',
        properties: Object.fromEntries(
          params
            .split(',')
            .filter(Boolean)
            .map((p) => [p, { type: 'string' }]),
        ),
        additionalProperties: false,
      };
const server = new Server({ name: 'names', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: specs.map(([, name, params]) => ({ name, description: `The tool ${name}.`, inputSchema: schemaOf(params) })),
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }));
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => process.exit(0));
