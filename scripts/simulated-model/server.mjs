// @ts-check
/**
 * A deterministic OpenAI-compatible Chat Completions server for recording example cassettes
 * (scenarios/toolsets). Not an LLM: tools are chosen by policy.mjs's keyword heuristic with
 * seeded noise. Listens on 127.0.0.1 only.
 *
 *   node scripts/simulated-model/server.mjs [--port 8787] [--seed 7] [--noise 1.5]
 *
 * Repeats: the n-th identical conversation start (same tools, same messages) since the server
 * started is sample n, and the sample travels in the tool-call ids (`call_<sample>_<step>`), so
 * follow-up requests of that run draw the same noise stream. Record with --concurrency 1 so
 * repeat r is sample r, and restart the server before recording again.
 */
import { serveChatCompletions } from './chat-server.mjs';
import { pathToFileURL } from 'node:url';
import { DEFAULT_NOISE, fillArguments, hash32, pickTool, steps } from './policy.mjs';

/** The model id the server reports back. */
export const SIM_MODEL = 'sim-keyword-picker';

/**
 * Starts the server; resolves with its base URL (`http://127.0.0.1:PORT/v1`) and a close function.
 * @param {{port?: number, seed?: number, noise?: number}} [options]
 */
export async function startSimulatedModel(options = {}) {
  const seed = options.seed ?? 7;
  const noise = options.noise ?? DEFAULT_NOISE;
  /** @type {Map<number, number>} conversation-start hash -> samples handed out */
  const starts = new Map();
  return serveChatCompletions((body) => complete(body, { seed, noise, starts }), options.port ?? 8787);
}

/** One Chat Completions answer: the next step's tool call, or the closing text. */
function complete(body, { seed, noise, starts }) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const tools = (Array.isArray(body.tools) ? body.tools : []).map((t) => t.function).filter((f) => f && typeof f.name === 'string');
  const user = [...messages].reverse().find((m) => m.role === 'user');
  const message = typeof user?.content === 'string' ? user.content : '';
  const assistantCalls = messages.filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length);
  const sample = assistantCalls.length ? sampleOf(assistantCalls[0].tool_calls[0].id) : nextSample(starts, tools, messages);
  const plan = steps(message);
  const step = assistantCalls.length;
  const usage = (reply) => ({
    prompt_tokens: Math.ceil(JSON.stringify({ messages, tools }).length / 4),
    completion_tokens: Math.ceil(JSON.stringify(reply).length / 4),
  });
  if (step < plan.length && tools.length) {
    const tool = pickTool(plan[step], tools, { seed, sample, noise });
    const call = {
      id: `call_${sample}_${step}`,
      type: 'function',
      function: { name: tool.name, arguments: JSON.stringify(fillArguments(tool, plan[step], message)) },
    };
    const reply = { role: 'assistant', content: null, tool_calls: [call] };
    return wrap(reply, 'tool_calls', usage(reply), sample, step);
  }
  const called = assistantCalls.map((m) => m.tool_calls[0].function?.name).join(', ');
  const reply = { role: 'assistant', content: called ? `Done: called ${called}.` : 'Nothing to do.' };
  return wrap(reply, 'stop', usage(reply), sample, step);
}

function wrap(message, finish, usage, sample, step) {
  // Fixed id and `created`: a re-recording of the same run writes the same cassette.
  return {
    id: `chatcmpl-sim-${sample}-${step}`,
    object: 'chat.completion',
    created: 0,
    model: SIM_MODEL,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function nextSample(starts, tools, messages) {
  const key = hash32(JSON.stringify([tools, messages]));
  const sample = starts.get(key) ?? 0;
  starts.set(key, sample + 1);
  return sample;
}

function sampleOf(id) {
  const match = /^call_(\d+)_/.exec(String(id));
  return match ? Number(match[1]) : 0;
}

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sim = await startSimulatedModel({ port: flag('port', 8787), seed: flag('seed', 7), noise: flag('noise', DEFAULT_NOISE) });
  process.stdout.write(`simulated model listening on ${sim.url}\n`);
  const stop = () => sim.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
