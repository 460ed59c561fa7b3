import { describe, expect, it } from 'vitest';
import { executeTestRun, testRun } from '../../src/runner/test-run.js';

const ENV_KEY = 'sk-fakeOPENAI1234567890';
const BUILD_KEY = 'zzBUILDKEY987654321';

describe('a test_run on its own (CLI test-run, MCP, library) keeps the keys it was given out of its result and spans', () => {
  it('scrubs an env key and a build key the model echoes, from the output, the transcript and every span', async () => {
    const record = await executeTestRun({
      agent: {
        id: 'leaky',
        agent: {
          name: 'Leaky',
          llm: { provider: 'scripted', model: 'm', parameters: { extra: { api_key: BUILD_KEY } } },
          tools: [{ name: 'finish', description: 'Finish.', parameters: { type: 'object' }, returns: { done: true } }],
        },
      },
      inputs: { messages: [{ role: 'user', content: `my key is ${ENV_KEY}` }] },
      expectations: { terminal_tool: 'finish' },
      script: [{ tool_calls: [{ name: 'finish', args: { note: BUILD_KEY } }] }, { text: `done ${ENV_KEY} ${BUILD_KEY}` }],
      env: { OPENAI_API_KEY: ENV_KEY },
    });
    expect(record.result.verdict).toBe('pass');
    expect(record.result.output).toBe('done [redacted] [redacted]');
    const everything = JSON.stringify({ result: record.result, turn: record.turn, spans: record.spans });
    expect(everything).not.toContain(ENV_KEY);
    expect(everything).not.toContain(BUILD_KEY);
    expect(everything).toContain('[redacted]');
  });

  it('the public testRun result says the same', async () => {
    const result = await testRun({
      agent: { id: 'leaky', agent: { name: 'Leaky', tools: [] } },
      inputs: { messages: [{ role: 'user', content: 'hi' }] },
      script: [{ text: `the key is ${ENV_KEY}` }],
      env: { OPENAI_API_KEY: ENV_KEY },
    });
    expect(result.output).toBe('the key is [redacted]');
  });
});
