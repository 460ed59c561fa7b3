// An orders agent on plain fetch, in Anthropic Messages style: no SDK, its own tool loop.
// agentcheck starts it per run: {messages, context, config} on stdin, ANTHROPIC_BASE_URL pointing
// at the run's model bridge; it prints {"output": ...} on stdout.
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const ORDERS = { 42: { id: '42', status: 'delivered', total: 30 } };

const tools = {
  lookup_order: {
    description: 'Look up an order by id.',
    input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    run: ({ order_id }) => {
      const order = ORDERS[order_id];
      if (!order) throw new Error(`order ${order_id} not found`);
      return order;
    },
  },
  refund_order: {
    description: 'Refund an order.',
    input_schema: { type: 'object', properties: { order_id: { type: 'string' }, reason: { type: 'string' } }, required: ['order_id'] },
    run: ({ order_id }) => ({ ok: true, refund_id: `r-${order_id}` }),
  },
};

const messages = input.messages.map((message) => ({ role: message.role, content: message.content }));

for (let step = 0; step < 8; step++) {
  const response = await fetch(`${process.env.ANTHROPIC_BASE_URL}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: input.config.instructions,
      tools: Object.entries(tools).map(([name, tool]) => ({ name, description: tool.description, input_schema: tool.input_schema })),
      messages,
    }),
  });
  const message = await response.json();
  if (!response.ok) {
    console.error(`model call failed: ${JSON.stringify(message)}`);
    process.exit(1);
  }
  messages.push({ role: 'assistant', content: message.content });
  if (message.stop_reason !== 'tool_use') {
    const output = message.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('');
    process.stdout.write(JSON.stringify({ output }));
    process.exit(0);
  }
  const results = message.content
    .filter((block) => block.type === 'tool_use')
    .map((call) => {
      try {
        return { type: 'tool_result', tool_use_id: call.id, content: JSON.stringify(tools[call.name].run(call.input)) };
      } catch (error) {
        // A failing tool goes back to the model marked as an error (and so becomes a failed call).
        return { type: 'tool_result', tool_use_id: call.id, content: error.message, is_error: true };
      }
    });
  messages.push({ role: 'user', content: results });
}
console.error('too many steps');
process.exit(1);
