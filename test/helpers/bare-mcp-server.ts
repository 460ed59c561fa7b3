/**
 * The source of a stdio MCP server (an .mjs file) that speaks the protocol's JSON-RPC lines itself,
 * without the SDK: for tests where the server is scaffolding, not what is tested. Loading the SDK's
 * server (and zod) costs a process about 0.3 s of CPU; this one starts in node's own time.
 * `names` is a JavaScript expression (it may use readFileSync, imported), evaluated when the server
 * starts, giving the names of the tools it lists (each with an object inputSchema, its name as description); a call of any tool
 * answers `called <name>`. It answers initialize, tools/list, tools/call and ping, refuses any
 * other request (-32601), ignores notifications, and exits when its stdin ends.
 */
export function bareMcpServer(name: string, names: string): string {
  return `import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const names = ${names};
const answers = {
  initialize: (params) => ({ protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: ${JSON.stringify(name)}, version: '1.0.0' } }),
  'tools/list': () => ({ tools: names.map((name) => ({ name, description: name, inputSchema: { type: 'object' } })) }),
  'tools/call': (params) => ({ content: [{ type: 'text', text: 'called ' + params.name }] }),
  ping: () => ({}),
};
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  const answer = Object.hasOwn(answers, method)
    ? { jsonrpc: '2.0', id, result: answers[method](params ?? {}) }
    : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found: ' + method } };
  process.stdout.write(JSON.stringify(answer) + '\\n');
});
process.stdin.once('end', () => process.exit(0));
`;
}
