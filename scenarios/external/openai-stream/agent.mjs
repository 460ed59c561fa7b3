// A notes agent on plain fetch in OpenAI Chat Completions style that streams every model answer
// (stream: true), as chat UIs do: it reassembles text and tool calls from the SSE chunks.
import { readFileSync } from 'node:fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const notes = new Map([['groceries', 'milk, eggs']]);

const tools = [
  {
    type: 'function',
    function: {
      name: 'read_note',
      description: 'Read a note by title.',
      parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'append_note',
      description: 'Append text to a note.',
      parameters: { type: 'object', properties: { title: { type: 'string' }, text: { type: 'string' } }, required: ['title', 'text'] },
    },
  },
];

function run(name, args) {
  if (!notes.has(args.title)) return { error: `no note titled ${args.title}` };
  if (name === 'read_note') return { title: args.title, text: notes.get(args.title) };
  notes.set(args.title, `${notes.get(args.title)}, ${args.text}`);
  return { title: args.title, text: notes.get(args.title) };
}

/** One streamed completion, reassembled: {content, tool_calls}. */
async function complete(messages) {
  const response = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
    body: JSON.stringify({ model: 'gpt-4.1-mini', messages, tools, stream: true, stream_options: { include_usage: true } }),
  });
  if (!response.ok) throw new Error(`model call failed: ${await response.text()}`);
  let content = '';
  const calls = [];
  for (const frame of (await response.text()).split('\n\n')) {
    const data = frame
      .split('\n')
      .find((line) => line.startsWith('data: '))
      ?.slice(6);
    if (!data || data === '[DONE]') continue;
    const delta = JSON.parse(data).choices[0]?.delta ?? {};
    content += delta.content ?? '';
    for (const part of delta.tool_calls ?? []) {
      calls[part.index] ??= { id: part.id, type: 'function', function: { name: '', arguments: '' } };
      if (part.function?.name) calls[part.index].function.name = part.function.name;
      calls[part.index].function.arguments += part.function?.arguments ?? '';
    }
  }
  return { role: 'assistant', content, ...(calls.length ? { tool_calls: calls } : {}) };
}

const messages = [{ role: 'system', content: 'You keep notes.' }, ...input.messages];
for (let step = 0; step < 6; step++) {
  const message = await complete(messages);
  messages.push(message);
  if (!message.tool_calls) {
    process.stdout.write(message.content);
    process.exit(0);
  }
  for (const call of message.tool_calls) {
    const result = run(call.function.name, JSON.parse(call.function.arguments));
    messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
  }
}
console.error('too many steps');
process.exit(1);
