// @ts-check
/**
 * A deterministic stand-in grader for recording the judge example's cassettes (scenarios/judge):
 * an OpenAI-compatible Chat Completions server that is not an LLM. It scores the <output> of a
 * grading request by the phrases the <rubric> quotes: score = quoted phrases found in the output
 * (case-insensitive) / quoted phrases. Listens on 127.0.0.1 only.
 *
 *   npm run build && node scripts/simulated-model/grader.mjs     # re-records scenarios/judge/cassettes
 */
import { serveChatCompletions } from './chat-server.mjs';
import { pathToFileURL } from 'node:url';
import { recordSuiteCassettes } from './record-cassettes.mjs';

/** The model id the server reports back. */
export const GRADER_MODEL = 'sim-phrase-grader';

/**
 * Starts the grader; resolves with its base URL (`http://127.0.0.1:PORT/v1`) and a close function.
 * @param {{port?: number}} [options]
 */
export async function startSimulatedGrader(options = {}) {
  return serveChatCompletions(complete, options.port ?? 8789);
}

/** @param {any} body */
function complete(body) {
  const user = (Array.isArray(body.messages) ? body.messages : []).find((m) => m.role === 'user');
  const text = typeof user?.content === 'string' ? user.content : '';
  const rubric = /<rubric>\n([\s\S]*?)\n<\/rubric>/.exec(text)?.[1] ?? '';
  const output = (/<output>\n([\s\S]*?)\n<\/output>/.exec(text)?.[1] ?? '').toLowerCase();
  const phrases = [...rubric.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const found = phrases.filter((phrase) => output.includes(phrase.toLowerCase()));
  const missing = phrases.filter((phrase) => !found.includes(phrase));
  const score = phrases.length ? Math.round((found.length / phrases.length) * 100) / 100 : 0;
  const reason = missing.length
    ? `The reply lacks ${missing.map((p) => JSON.stringify(p)).join(', ')}${found.length ? `; it has ${found.map((p) => JSON.stringify(p)).join(', ')}` : ''}.`
    : `The reply has every phrase the rubric asks for (${found.map((p) => JSON.stringify(p)).join(', ')}).`;
  const answer = JSON.stringify({ score, passed: missing.length === 0, reason });
  return {
    id: `chatcmpl-grader-${score}`,
    object: 'chat.completion',
    model: GRADER_MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: Math.ceil(text.length / 4),
      completion_tokens: Math.ceil(answer.length / 4),
      total_tokens: Math.ceil((text.length + answer.length) / 4),
    },
  };
}

// Run directly: re-record scenarios/judge/cassettes (the grader's URL in the suite config is
// part of every recorded request, so it listens on 127.0.0.1:8789).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const grader = await startSimulatedGrader({ port: 8789 });
  let status = 2;
  try {
    status = await recordSuiteCassettes({ suite: 'scenarios/judge', out: 'reports/judge-record', env: { ...process.env, OPENAI_API_KEY: 'sim-grader-key' } });
  } finally {
    await grader.close();
  }
  process.exitCode = status;
}
