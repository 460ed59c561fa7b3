import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import type { HttpMock } from '../../../src/runner/mocks/http-mocks.js';
import { testRun } from '../../../src/runner/test-run.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Mocks that answer the model provider's endpoint: the run needs no API key, and a request the
// mocks miss never goes out with the placeholder key put in for the missing one.

const completion = {
  id: 'c',
  object: 'chat.completion',
  model: 'gpt-4.1-mini',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'mocked answer' } }],
  usage: { prompt_tokens: 1, completion_tokens: 1 },
};

/** A testRun of a one-call openai build at `baseUrl`, with no API key in its environment. */
function runWithMocks(baseUrl: string, mocks: HttpMock[]) {
  // The provider's own retries (4): a miss must not be retried.
  const agent = revisionFromValue({ id: 'oa', agent: { name: 'OA', llm: { provider: 'openai', model: 'gpt-4.1-mini', base_url: baseUrl } } });
  return testRun({ agent, inputs: { messages: [{ role: 'user', content: 'hi' }] }, mocks: { http: mocks }, env: { PATH: process.env.PATH } });
}

describe('mocks of the model endpoint', () => {
  it('need no API key when written with an any-origin or a wildcard-host pattern', async () => {
    for (const url of ['*/chat/completions', 'https://*.test/v1/chat/completions', 'https://llm.test/*']) {
      const result = await runWithMocks('https://llm.test/v1', [{ method: 'POST', url, json: completion }]);
      expect({ url, stop: result.stop_reason, output: result.output }).toEqual({ url, stop: 'end_turn', output: 'mocked answer' });
    }
  });

  it('send nothing out when the mock of the endpoint misses: the unmatched request and the miss are named', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization}`);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(completion));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      const missedMatch = await runWithMocks(baseUrl, [
        { method: 'POST', url: `${baseUrl}/chat/completions`, match: { json: { model: 'gpt-5' } }, json: completion },
      ]);
      expect(missedMatch.verdict).toBe('failed');
      // Answered once, not retried as a network error would be (the miss is the same each time).
      expect(missedMatch.verdict_reason).not.toContain('times)');
      expect(missedMatch.verdict_reason).toContain(
        `no mock matched POST ${baseUrl}/chat/completions (mocks.http[0] has this route, but its match json: at model:`,
      );
      // Recording a cassette does not send it either (the recording would hold the endpoint's refusal).
      const dir = tempDir({});
      const recording = await testRun({
        agent: revisionFromValue({ id: 'oa', agent: { name: 'OA', llm: { provider: 'openai', model: 'gpt-4.1-mini', base_url: baseUrl, max_retries: 0 } } }),
        inputs: { messages: [{ role: 'user', content: 'hi' }] },
        mocks: { http: [{ method: 'POST', url: `${baseUrl}/chat/completions`, match: { json: { model: 'gpt-5' } }, json: completion }] },
        cassette: { mode: 'record', path: join(dir, 'c.json'), scenario: 'lib#c', variant: 'base', repeat: 0 },
        env: { PATH: process.env.PATH },
      });
      expect(recording.verdict_reason).toContain(`no mock matched POST ${baseUrl}/chat/completions (mocks.http[0] has this route`);
      // Before, both went to the endpoint with "Bearer agentcheck-cassette-replay".
      expect(seen).toEqual([]);
    } finally {
      server.close();
    }
  });
});

describe('a model call a mock redirects to a URL no mock answers', () => {
  it('is still the model call: unmatched at once, not retried', async () => {
    const result = await runWithMocks('https://llm.test/v1', [
      { method: 'POST', url: 'https://llm.test/v1/chat/completions', status: 307, headers: { location: 'https://elsewhere.test/chat' } },
    ]);
    expect(result.verdict_reason).toContain('no mock matched POST https://elsewhere.test/chat (mocks.http);');
    expect(result.verdict_reason).not.toContain('times)');
  });
});

describe('mocks that do not answer the model endpoint', () => {
  it('leave a missing API key missing: another method, or tool mocks for any origin', async () => {
    for (const mock of [
      { method: 'GET', url: 'https://llm.test/v1/chat/completions', json: {} },
      { method: 'GET', url: '*/orders/*', json: {} },
      { url: 'https://llm.test/v1/models', json: {} },
    ]) {
      const result = await runWithMocks('https://llm.test/v1', [mock]);
      expect({ url: mock.url, reason: result.verdict_reason }).toEqual({ url: mock.url, reason: expect.stringContaining('MODEL_NO_API_KEY') });
    }
  });
});

/** A testRun of a one-call openai build that replays the cassette at `path`. */
function replayFrom(path: string) {
  const agent = revisionFromValue({ id: 'oa', agent: { name: 'OA', llm: { provider: 'openai', model: 'gpt-4.1-mini', base_url: 'https://llm.test/v1' } } });
  return testRun({
    agent,
    inputs: { messages: [{ role: 'user', content: 'hi' }] },
    cassette: { mode: 'replay', path, scenario: 'lib#none', variant: 'base', repeat: 0 },
    env: { PATH: process.env.PATH },
  });
}

describe('testRun with a cassette', () => {
  it('leads its verdict with the cassette failure, as a scenario row does', async () => {
    const path = join(tempDir({}), 'none.json');
    const result = await replayFrom(path);
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toMatch(
      new RegExp(`^CASSETTE_MISSING: no cassette at ${path.replaceAll('/', '\\/')} to replay POST https://llm.test/v1/chat/completions`),
    );
  });

  it("says how to record with the request's cassette.mode, not the CLI's flag", async () => {
    const noInteractions = { schema: 'agentcheck.cassette/1', scenario: 'lib#none', variant: 'base', repeat: 0, recorded_at: '2026-01-01T00:00:00.000Z' };
    const dir = tempDir({ 'broken.json': '{"schema": ', 'invalid.json': JSON.stringify(noInteractions) });
    const missing = await replayFrom(join(dir, 'none.json'));
    expect(missing.verdict_reason).toMatch(/; record it with cassette\.mode: 'record' \(or cassette\.mode: 'auto'\)$/);
    const broken = await replayFrom(join(dir, 'broken.json'));
    expect(broken.verdict_reason).toMatch(/^CASSETTE_INVALID: .*a cassette must be JSON \(.+\); re-record it with cassette\.mode: 'record'$/);
    const invalid = await replayFrom(join(dir, 'invalid.json'));
    expect(invalid.verdict_reason).toMatch(/^CASSETTE_INVALID: .*missing required key "interactions"; re-record it with cassette\.mode: 'record'$/);
    // Several problems: each said once, on one line, and the way out once.
    writeFileSync(join(dir, 'many.json'), JSON.stringify({ schema: 'agentcheck.cassette/1', interactions: [{ request: {} }] }));
    const many = await replayFrom(join(dir, 'many.json'));
    expect(many.verdict_reason).toMatch(
      /^CASSETTE_INVALID: cannot replay the cassette: .*many\.json: \d+ problems: .*at interactions\[0\]\.request: .*; re-record it with cassette\.mode: 'record'$/,
    );
    expect(many.verdict_reason).not.toContain('\n');
    expect(many.verdict_reason!.split('re-record it with')).toHaveLength(2);
    expect(many.verdict_reason!.split(join(dir, 'many.json'))).toHaveLength(2);
    for (const result of [missing, broken, invalid, many]) expect(result.verdict_reason).not.toContain('--cassettes');
  });
});
