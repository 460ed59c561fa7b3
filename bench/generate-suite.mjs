// Generates a scripted suite: N scenarios, each making 3 tool calls and running 3 checks.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const AGENT = `id: bench-bot
agent:
  name: Bench bot
  llm: {provider: scripted, model: bench}
  max_turns: 6
  tools:
    - {name: lookup_order, description: Look an order up., read_only: true, parameters: {type: object, properties: {order_id: {type: string}}, required: [order_id]}, returns: {status: delivered, total: 12.5}}
    - {name: check_stock, description: Check stock., read_only: true, parameters: {type: object, properties: {sku: {type: string}}, required: [sku]}, returns: {in_stock: true}}
    - {name: create_refund, description: Refund., parameters: {type: object, properties: {order_id: {type: string}, reason: {type: string}}, required: [order_id, reason]}, returns: {ok: true, id: r1}}
`;

/** Writes `count` scenarios into `dir` (files of `perFile` scenarios each) and returns `dir`. */
export function generateSuite(dir, count, { perFile = 100, delayMs = 0 } = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'agent.yaml'), AGENT);
  for (let file = 0; file * perFile < count; file++) {
    const lines = ['defaults:', '  agent: agent.yaml', 'scenarios:'];
    for (let i = file * perFile; i < Math.min(count, (file + 1) * perFile); i++) {
      lines.push(
        `  - name: case ${i}`,
        `    inputs: {messages: [{role: user, content: "Refund order ${i}"}]}`,
        '    model:',
        '      script:',
        `        - tool_calls: [{name: lookup_order, args: {order_id: "${i}"}}, {name: check_stock, args: {sku: "S${i}"}}]${delayMs ? `\n          delay_ms: ${delayMs}` : ''}`,
        `        - tool_calls: [{name: create_refund, args: {order_id: "${i}", reason: damaged}}]`,
        '        - text: Refund created.',
        '    expect:',
        '      terminal_tool: create_refund',
        '      checks:',
        `        - tool_called: {tool: lookup_order, args: {order_id: "${i}"}}`,
        '        - tool_order: {before: [lookup_order, check_stock], after: create_refund}',
        '        - output: {contains: Refund created}',
      );
    }
    writeFileSync(join(dir, `suite-${String(file).padStart(4, '0')}.scenarios.yaml`), `${lines.join('\n')}\n`);
  }
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, count] = process.argv.slice(2);
  generateSuite(dir, Number(count));
}
