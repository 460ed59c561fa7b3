// A weather agent behind an http endpoint, as a platform would serve one. agentcheck starts it
// per run (PORT, OPENAI_BASE_URL pointing at the run's model bridge) and POSTs
// {messages, context, config, delta, deltas} to /invoke; it answers {output, trace_id}.
// It applies the scenario's delta to its own settings, as a server-side engine does.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const DEFAULTS = { instructions: 'You report the weather.', units: 'celsius' };
const TEMPERATURES_C = { oslo: 4, rome: 21 };

const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current temperature of a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

function getWeather({ city }, settings) {
  const celsius = TEMPERATURES_C[String(city).toLowerCase()];
  if (celsius === undefined) return { error: `unknown city ${city}` };
  return settings.units === 'fahrenheit'
    ? { city, temperature: Math.round((celsius * 9) / 5 + 32), units: 'fahrenheit' }
    : { city, temperature: celsius, units: 'celsius' };
}

async function invoke(body) {
  // The delta addresses the build's external.config: applied here, over the server's defaults.
  const settings = { ...DEFAULTS, ...(body.delta?.set?.external?.config ?? {}) };
  const messages = [{ role: 'system', content: settings.instructions }, ...body.messages];
  for (let step = 0; step < 6; step++) {
    const response = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages, tools }),
    });
    const completion = await response.json();
    if (!response.ok) throw new Error(`model call failed: ${JSON.stringify(completion)}`);
    const message = completion.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) return message.content ?? '';
    for (const call of message.tool_calls) {
      const result = getWeather(JSON.parse(call.function.arguments), settings);
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
    }
  }
  throw new Error('too many steps');
}

const server = createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/health') return res.end('ok');
  if (req.method !== 'POST' || req.url !== '/invoke') {
    res.writeHead(404);
    return res.end();
  }
  let text = '';
  for await (const chunk of req) text += chunk;
  try {
    const output = await invoke(JSON.parse(text));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ output, trace_id: randomUUID().replaceAll('-', '') }));
  } catch (error) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: error.message }));
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1');
