import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startLocalServer, type LocalServer } from '../../helpers/openai-server.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { AGENT, runJudgeSuite, scenario } from './judge-suite.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WHOLE = '{"score": 0.9, "passed": true, "reason": "Fine."}';

/** A Chat Completions body with the given message fields and finish reason. */
function answer(message: Record<string, unknown>, finishReason: string) {
  return {
    id: 'chatcmpl-grader',
    object: 'chat.completion',
    model: 'grader-1',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason }],
    usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 },
  };
}

/** Grades one run with an OpenAI-compatible grader that answers `body`. */
async function gradeWith(body: unknown) {
  server = await startLocalServer({ grader: (_request, res) => sendJson(res, 200, body) });
  const grader = `{provider: openai, model: grader-1, base_url: "${server.baseUrl('grader')}"}`;
  const dir = tempDir({ 'agent.yaml': AGENT, 'refund.scenario.yaml': scenario(`    - judge: {rubric: "Polite.", model: ${grader}}`) });
  return runJudgeSuite(dir, { env: { OPENAI_API_KEY: 'sk-grader' } });
}

describe('a grader answer that ended abnormally', () => {
  it('is a check error quoting the refusal, not "did not answer with JSON"', async () => {
    const { rows, spans } = await gradeWith(answer({ refusal: 'I will not grade' }, 'stop'));
    expect(rows[0].status).toBe('error');
    expect(rows[0].checks[0]).toMatchObject({
      status: 'error',
      reason: 'the grader\'s answer could not be used: the grader refused to answer (openai finish reason "stop"): "I will not grade"',
    });
    const chat = spans.find((span) => span.name === 'chat grader-1');
    expect(chat?.status).toBe('error');
    expect(chat?.attributes['error.type']).toBe('MODEL_REFUSAL');
  });

  it('is never a pass when cut off at the token limit, even if the text parses', async () => {
    const { rows } = await gradeWith(answer({ content: WHOLE }, 'length'));
    expect(rows[0].status).toBe('error');
    expect(rows[0].checks[0].status).toBe('error');
    expect(rows[0].checks[0].reason).toBe(
      'the grader\'s answer could not be used: the answer was cut off at a token limit (raise max_tokens, max_completion_tokens or max_output_tokens in the grader\'s model.parameters) (openai finish reason "length")',
    );
  });

  it('says the content filter withheld it', async () => {
    const { rows } = await gradeWith(answer({ content: '{"score": 0.9, "pas' }, 'content_filter'));
    expect(rows[0].checks[0].reason).toBe(
      'the grader\'s answer could not be used: the provider\'s content filter withheld the answer (openai finish reason "content_filter")',
    );
  });

  it('grades a normal ending as before', async () => {
    const { rows } = await gradeWith(answer({ content: WHOLE }, 'stop'));
    expect(rows[0].checks[0]).toMatchObject({ status: 'pass', reason: 'score 0.9 >= 0.7: Fine.' });
  });
});
