import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletion, sendJson, startLocalServer, type LocalServer } from '../../helpers/openai-server.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { AGENT, runJudgeSuite, scenario } from './judge-suite.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('judge graders and cassettes', () => {
  it('records the grader call with a JSON-schema response format, then replays it offline', async () => {
    server = await startLocalServer({
      grader: (_request, res) => sendJson(res, 200, chatCompletion({ text: '{"score": 0.75, "passed": true, "reason": "Confirms r1."}' })),
    });
    const grader = `{provider: openai, model: grader-1, base_url: "${server.baseUrl('grader')}"}`;
    const dir = tempDir({ 'agent.yaml': AGENT, 'refund.scenario.yaml': scenario(`    - judge: {rubric: "Names the refund id.", model: ${grader}}`) });
    const cassettes = join(dir, 'cassettes');

    const recorded = await runJudgeSuite(dir, { cassettes: { mode: 'record', dir: cassettes }, env: { OPENAI_API_KEY: 'sk-grader-secret' } });
    expect(recorded.rows[0].status, recorded.rows[0].reason).toBe('pass');
    expect(recorded.rows[0].checks[0].reason).toBe('score 0.75 >= 0.7: Confirms r1.');
    const sent = server.of('grader');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatchObject({ model: 'grader-1', response_format: { type: 'json_schema', json_schema: { name: 'judgement', strict: true } } });
    expect((sent[0].body as { messages: Array<{ content: string }> }).messages[1].content).toContain('Refund r1 created for order 1234.');

    await server.close();
    server = undefined;
    const replayed = await runJudgeSuite(dir, { cassettes: { mode: 'replay', dir: cassettes } });
    expect(replayed.rows[0].status, replayed.rows[0].reason).toBe('pass');
    const stable = (rows: typeof recorded.rows) => rows[0].checks.map(({ id, status, reason }) => ({ id, status, reason }));
    expect(stable(replayed.rows)).toEqual(stable(recorded.rows));
  });
});
