import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRun } from '../../src/runner/test-run.js';
import { sendJson, startLocalServer, type LocalServer } from '../helpers/openai-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runShopSuite } from './cassettes/shop-suite.js';
import { palette } from '../../src/runner/reporters/format/ansi.js';
import { renderTableReport } from '../../src/runner/reporters/table-reporter.js';
import { report } from './reporters/fixture-report.js';

// An abnormal model ending reaches the test_run result: stop_reason and a failed verdict whose
// reason names it, against a real HTTP server speaking each provider's documented shape.

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({
    // The terminal tool runs, then the final answer is refused (Messages API stop_reason "refusal").
    claude: (request, res) =>
      sendJson(res, 200, {
        id: `msg_0${request.count}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content:
          request.count === 1
            ? [{ type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'create_refund', input: { order_id: '1234' } }]
            : [{ type: 'text', text: 'I' }],
        stop_reason: request.count === 1 ? 'tool_use' : 'refusal',
        stop_sequence: null,
        usage: { input_tokens: 300, output_tokens: 20 },
      }),
    // The answer is cut off (Chat Completions finish_reason "length").
    gpt: (_request, res) =>
      sendJson(res, 200, {
        id: 'chatcmpl-A1',
        object: 'chat.completion',
        model: 'gpt-4o-2024-08-06',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Your refund for order', refusal: null }, finish_reason: 'length' }],
        usage: { prompt_tokens: 120, completion_tokens: 16, total_tokens: 136 },
      }),
    // A tool call cut off mid-arguments (finish_reason "length" with tool_calls): never run.
    gptcall: (_request, res) =>
      sendJson(res, 200, {
        id: 'chatcmpl-A2',
        object: 'chat.completion',
        model: 'gpt-4o-2024-08-06',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'create_refund', arguments: '{"order_id":' } }],
            },
            finish_reason: 'length',
          },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 16, total_tokens: 136 },
      }),
  });
});

afterAll(async () => {
  await server?.close();
});

function agentFile(llm: string): string {
  const dir = tempDir({
    'agent.yaml': `id: refund-bot
agent:
  name: Refund bot
  llm: ${llm}
  tools:
    - {name: create_refund, description: Create a refund., parameters: {type: object, properties: {order_id: {type: string}}}, returns: {ok: true}}
`,
  });
  return join(dir, 'agent.yaml');
}

const inputs = { messages: [{ role: 'user' as const, content: 'Refund order 1234.' }] };

/** A folder with a refund build on the stub's `route` (plus `tools`, YAML lines) and one scenario using it. */
function refundSuiteDir(route: string, tools = ''): string {
  return tempDir({
    'agent.yaml': `id: refund-bot\nagent:\n  name: Refund bot\n  llm: {provider: openai, model: gpt-4o, base_url: "${server.baseUrl(route)}"}\n${tools}`,
    'refund.scenario.yaml': 'name: refund\nagent: agent.yaml\ninputs: {messages: [{role: user, content: Refund order 1234.}]}\n',
  });
}

describe('test_run: abnormal model endings', () => {
  it('an Anthropic refusal after the terminal tool fails the verdict, naming the refusal', async () => {
    const result = await testRun({
      agent: agentFile(`{provider: anthropic, model: claude-sonnet-4-5, base_url: "${server.origin}/claude"}`),
      inputs,
      expectations: { terminal_tool: 'create_refund' },
      env: {},
    });
    expect(result.stop_reason).toBe('refusal');
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toContain('the model stopped early, stop_reason refusal: it refused');
    expect(result.verdict_reason).toContain('anthropic finish reason "refusal"');
  });

  it('an OpenAI answer cut off at length fails the verdict, naming the token limit', async () => {
    const result = await testRun({
      agent: agentFile(`{provider: openai, model: gpt-4o, base_url: "${server.baseUrl('gpt')}"}`),
      inputs,
      expectations: { terminal_tool: 'create_refund' },
      env: {},
    });
    expect(result.stop_reason).toBe('max_tokens');
    expect(result.verdict).toBe('failed');
    expect(result.verdict_reason).toContain('stop_reason max_tokens: its answer was cut off at the token limit');
    expect(result.output).toBe('Your refund for order');
  });

  it("in a suite, the scenario row is an error row of the ending's type, not a pass", async () => {
    const dir = refundSuiteDir('gpt');
    const [row] = await runShopSuite(dir, { mode: 'off', dir: join(dir, 'cassettes') }, {});
    expect(row.status).toBe('error');
    expect(row.error?.type).toBe('MODEL_MAX_TOKENS');
    expect(row.test_run?.stop_reason).toBe('max_tokens');
  });

  it('the failure listing says a call of a cut-off answer was not run, not that it is pending', async () => {
    const dir = refundSuiteDir(
      'gptcall',
      '  tools: [{name: create_refund, parameters: {type: object, properties: {order_id: {type: string}}}, returns: {ok: true}}]\n',
    );
    const [row] = await runShopSuite(dir, { mode: 'off', dir: join(dir, 'cassettes') }, {});
    expect(row.error?.type).toBe('MODEL_MAX_TOKENS');
    const text = renderTableReport(report([row]), palette(false), { columns: 120, quiet: true });
    expect(text).toContain('  Tool calls (1):\n    1. create_refund("{\\"order_id\\":") -> not run (the answer was cut off)\n');
    expect(text).not.toContain('pending');
  });
});
