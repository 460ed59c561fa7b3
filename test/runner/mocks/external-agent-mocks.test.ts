import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { testRun } from '../../../src/runner/test-run.js';
import { chatCompletion, sendJson, startLocalServer } from '../../helpers/openai-server.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** An /invoke agent that asks the model bridge once and answers with the model's text. */
const SERVER = `
require('node:http').createServer(async (req, res) => {
  if (req.method === 'GET') return res.end('ok');
  let text = '';
  for await (const chunk of req) text += chunk;
  const input = JSON.parse(text);
  const model = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: input.messages }),
  }).then((response) => response.json());
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ output: 'agent says ' + model.choices[0].message.content }));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

describe('an external http agent in a run with mocks', () => {
  it('is the agent under test: its invoke reaches it, never the mocks (which answer other requests)', async () => {
    const dir = tempDir({ 'server.cjs': SERVER });
    const agent = revisionFromValue({
      id: 'remote',
      external: { http: { url: 'http://127.0.0.1:{port}/invoke', start: { command: [process.execPath, join(dir, 'server.cjs')], ready_path: '/health' } } },
    });
    const result = await testRun({
      agent,
      inputs: { messages: [{ role: 'user', content: 'Hi' }] },
      script: [{ text: 'Hello!' }],
      mocks: { http: [{ url: 'https://unrelated.test/x', json: {} }] },
    });
    // Before, the invoke itself was a request no mock matched.
    expect({ verdict: result.verdict, output: result.output, reason: result.verdict_reason }).toMatchObject({
      output: 'agent says Hello!',
      verdict: 'unconfirmed',
    });
  });
});

describe('an external agent stopped at its external.timeout_ms while recording', () => {
  it('writes no cassette: the half conversation would replay as another run', async () => {
    const upstream = await startLocalServer({ llm: (_request, res) => sendJson(res, 200, chatCompletion({ text: 'first answer' })) });
    try {
      // One model call through the bridge (recorded), then the agent hangs past its limit.
      const dir = tempDir({
        'agent.cjs': `fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) }).then(() => setInterval(() => {}, 1000));`,
      });
      const agent = revisionFromValue({
        id: 'slow',
        external: {
          command: [process.execPath, join(dir, 'agent.cjs')],
          // Long enough for the agent to start and make its call on a loaded machine.
          timeout_ms: 5000,
          llm: { provider: 'openai', model: 'm', base_url: upstream.baseUrl('llm'), max_retries: 0 },
        },
      });
      const path = join(dir, 'cassette.json');
      const result = await testRun({
        agent,
        inputs: { messages: [{ role: 'user', content: 'hi' }] },
        cassette: { mode: 'record', path, scenario: 'lib#slow', variant: 'base', repeat: 0 },
        env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-test-key-123' },
      });
      expect(result.verdict_reason).toContain('EXTERNAL_AGENT_TIMEOUT');
      expect(upstream.of('llm')).toHaveLength(1);
      expect(existsSync(path)).toBe(false);
    } finally {
      await upstream.close();
    }
  });
});
