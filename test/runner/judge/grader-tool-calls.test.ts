import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { chatCompletion, sendJson, startLocalServer, type LocalServer } from '../../helpers/openai-server.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { runJudgeSuite } from './judge-suite.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Three calls that never ran: invalid arguments, denied by the approvals, an unknown tool. */
const scenario = (grader: string) => `name: failed calls
agent: support-bot.yaml
approvals: {default: approve, tools: {delete_order: deny}}
inputs: {messages: [{role: user, content: "hi"}]}
model:
  allow_unknown_tools: true
  script:
    - tool_calls: [{name: lookup_order, args: {order_id: 5}}, {name: delete_order, args: {order_id: "1"}}, {name: fly, args: {}}]
    - text: ok
expect:
  checks:
    - judge: {rubric: "The agent explains why its lookup failed.", include: [tool_calls], model: ${grader}}
`;

describe('judge include: [tool_calls]', () => {
  it('shows the grader why a call that never ran failed or was denied, as the model was told', async () => {
    server = await startLocalServer({
      grader: (_request, res) => sendJson(res, 200, chatCompletion({ text: '{"score": 1, "passed": true, "reason": "ok"}' })),
    });
    const grader = `{provider: openai, model: g, base_url: "${server.baseUrl('grader')}"}`;
    const dir = tempDir({
      'support-bot.yaml': readFileSync('fixtures/agents/support-bot.yaml', 'utf8'),
      'failed.scenario.yaml': scenario(grader),
    });
    const { rows } = await runJudgeSuite(dir, { env: { OPENAI_API_KEY: 'sk-grader' } });
    expect(rows[0].checks[0].status, rows[0].checks[0].reason).toBe('pass');
    const content = (server.of('grader')[0].body as { messages: Array<{ content: string }> }).messages[1].content;
    const block = /<tool_calls>\n([\s\S]*)\n<\/tool_calls>/.exec(content)?.[1] ?? '';
    const calls = JSON.parse(block) as Array<Record<string, unknown>>;
    expect(calls.map(({ name, outcome }) => [name, outcome])).toEqual([
      ['lookup_order', 'error'],
      ['delete_order', 'denied'],
      ['fly', 'error'],
    ]);
    expect(calls[0].error).toMatch(/^Invalid arguments for lookup_order: order_id: expected string, got number 5/);
    expect(calls[1].error).toMatch(/^Denied: /);
    expect(calls[2].error).toMatch(/^Unknown tool "fly"/);
  });
});
