import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, ScenarioRow } from '../../src/runner/report/report.js';
import { runCli } from '../e2e/cli.js';
import { scriptedChat, sendJson, startLocalServer, type LocalServer, type Route } from '../helpers/openai-server.js';
import { tempDir } from '../helpers/temp-dir.js';

// Model endpoint faults through the built CLI against a real HTTP server on 127.0.0.1: every
// scenario ends with a verdict or an error row that says what happened, and one suite holds
// them all, so a fault in one scenario cannot take the others (or the process) down.

const finishTurns = [{ toolCalls: [{ name: 'finish', arguments: '{}' }] }, { text: 'done' }];
const lookupTurns = [{ toolCalls: [{ name: 'lookup', arguments: '{"id":"1"}' }] }, ...finishTurns];

/** The first `n` requests get `fault`, the rest a healthy script. */
function faultsThen(n: number, fault: (res: ServerResponse) => void, turns = finishTurns): Route {
  const healthy = scriptedChat(turns);
  return (request, res) => (request.count <= n ? fault(res) : healthy(request, res));
}

const error500 = (res: ServerResponse) => sendJson(res, 500, { error: { message: 'upstream exploded', type: 'server_error' } });

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer({
    // 429 storm with retry-after-ms (OpenAI's header), then success.
    storm: faultsThen(4, (res) => sendJson(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after-ms': '50' }), lookupTurns),
    // A standard Retry-After in whole seconds.
    'retry-after': faultsThen(1, (res) => sendJson(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '1' })),
    // Two 500s (no hint: jittered backoff), then success.
    flaky500: faultsThen(2, error500),
    down500: (_req, res) => error500(res),
    // Never answers: the attempt times out.
    hang: () => undefined,
    // The connection is reset before any response.
    reset: (_req, res) => res.socket?.destroy(),
    'reset-once': faultsThen(1, (res) => res.socket?.destroy()),
    // A complete HTTP response whose JSON body stops in the middle.
    truncated: (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[{"message":{"role":"assistant","content":"hel'),
    // Headers promise 400 bytes; 40 arrive, then the connection drops.
    'cut-off': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"choices":[{"message":{"role":"assista');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    'not-json': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>'),
    'wrong-shape': (_req, res) => sendJson(res, 200, { choices: [] }),
    'bad-args': scriptedChat([
      {
        toolCalls: [
          { name: 'lookup', arguments: '{"id": ' },
          { name: 'lookup', arguments: '{"id":"2"}' },
        ],
      },
      { text: 'gave up' },
    ]),
    'schema-args': scriptedChat([{ toolCalls: [{ name: 'lookup', arguments: '{"id": 42}' }] }, { text: 'gave up' }]),
    'unknown-tool': scriptedChat([{ toolCalls: [{ name: 'drop_tables', arguments: '{}' }] }, { text: 'gave up' }]),
    unauthorized: (_req, res) => sendJson(res, 401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }),
  });
});

afterAll(async () => {
  await server?.close();
});

// The model timeout only guards a hang: the `hang` route sets its own short one (the outcome under test).
function agentYaml(): string {
  return `id: fault-bot
agent:
  name: Fault bot
  llm: {provider: openai, model: m, base_url: "${server.baseUrl('unused')}", timeout_ms: 60000, max_retries: 4}
  tools:
    - {name: lookup, description: Look up., read_only: true, parameters: {type: object, properties: {id: {type: string}}, required: [id], additionalProperties: false}, returns: {status: ok}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;
}

/** One scenario against route `route`; `llm` overrides the agent's llm fields (timeouts, retries). */
function scenario(route: string, llm: Record<string, number> = {}): string {
  const delta = Object.keys(llm).length ? `\n    delta: {set: {agent: {llm: ${JSON.stringify(llm)}}}}` : '';
  return `  - name: ${route}
    model: {base_url: "${server.baseUrl(route)}"}${delta}
`;
}

describe('model endpoint faults (real local server, built CLI)', () => {
  it('ends every scenario with a verdict or an error row that says what happened', async () => {
    const suite = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
  expect: {terminal_tool: finish}
scenarios:
${scenario('storm')}${scenario('retry-after')}${scenario('flaky500')}${scenario('down500', { max_retries: 1 })}${scenario('hang', { timeout_ms: 300, max_retries: 1 })}${scenario('reset', { max_retries: 1 })}${scenario('reset-once')}${scenario('truncated')}${scenario('cut-off', { max_retries: 0 })}${scenario('not-json')}${scenario('wrong-shape')}${scenario('bad-args')}${scenario('schema-args')}${scenario('unknown-tool')}${scenario('unauthorized')}`;
    const dir = tempDir({ 'agent.yaml': agentYaml(), 'faults.scenarios.yaml': suite });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--out', out, '--reporter', 'json,md,junit', '--concurrency', '16'], dir, { OPENAI_API_KEY: 'sk-test' });
    expect(result.exitCode, result.all).toBe(1);
    expect(result.stderr).not.toMatch(/unexpected error|TypeError|at .*\.js:\d+/);

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const names = [
      'storm',
      'retry-after',
      'flaky500',
      'down500',
      'hang',
      'reset',
      'reset-once',
      'truncated',
      'cut-off',
      'not-json',
      'wrong-shape',
      'bad-args',
      'schema-args',
      'unknown-tool',
      'unauthorized',
    ];
    expect(report.scenarios.map((row) => row.name).sort()).toEqual([...names].sort());
    expect(new Set(report.scenarios.map((row) => row.id)).size).toBe(names.length);
    expect(report.summary.total).toBe(names.length);
    const row = (name: string): ScenarioRow => report.scenarios.find((r) => r.name === name)!;

    // Recovered: retried through the fault, then the run completed and passed.
    for (const name of ['storm', 'retry-after', 'flaky500', 'reset-once']) {
      expect(row(name), name).toMatchObject({ status: 'pass', error: null });
      expect(row(name).test_run?.verdict).toBe('pass');
    }
    // The storm's retries waited at least the server's retry-after-ms hint.
    const storm = server.of('storm');
    expect(storm).toHaveLength(4 + 3);
    for (let i = 1; i <= 4; i++) expect(storm[i].at - storm[i - 1].at).toBeGreaterThanOrEqual(45);
    const retryAfter = server.of('retry-after');
    expect(retryAfter[1].at - retryAfter[0].at).toBeGreaterThanOrEqual(950);

    const errorOf = (name: string) => {
      expect(row(name).status, `${name}: ${row(name).reason}`).toBe('error');
      return row(name).error!;
    };
    expect(errorOf('down500')).toMatchObject({ type: 'MODEL_RETRIES_EXHAUSTED' });
    expect(errorOf('down500').message).toMatch(/failed after 2 attempts: last HTTP 500: upstream exploded/);
    expect(server.of('down500')).toHaveLength(2);

    expect(errorOf('hang')).toMatchObject({ type: 'MODEL_TIMEOUT' });
    expect(errorOf('hang').message).toContain('failed after 2 attempts: the last attempt timed out');
    expect(server.of('hang')).toHaveLength(2);

    expect(errorOf('reset')).toMatchObject({ type: 'MODEL_RETRIES_EXHAUSTED' });
    expect(errorOf('reset').message).toMatch(/failed after 2 attempts: network error/);

    expect(errorOf('cut-off')).toMatchObject({ type: 'MODEL_RETRIES_EXHAUSTED' });
    expect(errorOf('cut-off').message).toMatch(/failed after 1 attempt: network error/);

    expect(errorOf('truncated')).toMatchObject({ type: 'MODEL_BAD_RESPONSE' });
    expect(errorOf('truncated').message).toContain('response body is not JSON (HTTP 200)');
    expect(errorOf('not-json')).toMatchObject({ type: 'MODEL_BAD_RESPONSE' });
    expect(errorOf('not-json').message).toContain('502 Bad Gateway');
    expect(errorOf('wrong-shape')).toMatchObject({ type: 'MODEL_BAD_RESPONSE' });
    expect(errorOf('wrong-shape').message).toContain('response has no choices[0].message');
    // Arguments that are not JSON are a tool error for that call; the other call of the response runs.
    expect(row('bad-args')).toMatchObject({ status: 'fail', error: null });
    expect(row('bad-args').test_run?.tools).toEqual([{ name: 'lookup', called: 2, returned: 1, errors: 1 }]);
    const badArgsReply = (server.of('bad-args')[1].body as { messages: Array<{ role: string; content: string }> }).messages.filter((m) => m.role === 'tool');
    expect(badArgsReply.map((m) => m.content)).toEqual([
      expect.stringContaining('Invalid arguments for lookup: the arguments are not valid JSON'),
      '{"status":"ok"}',
    ]);

    expect(errorOf('unauthorized')).toMatchObject({ type: 'MODEL_REQUEST_REJECTED' });
    expect(errorOf('unauthorized').message).toContain('rejected with HTTP 401: Incorrect API key provided');
    expect(server.of('unauthorized')).toHaveLength(1); // a 4xx is not retried

    // Invalid arguments and unknown tools are tool errors the model sees; the verdict says so.
    for (const [name, tool] of [
      ['schema-args', 'lookup'],
      ['unknown-tool', 'drop_tables'],
    ]) {
      expect(row(name), name).toMatchObject({ status: 'fail', error: null });
      expect(row(name).test_run?.verdict).toBe('failed');
      expect(row(name).test_run?.verdict_reason).toContain(tool);
      expect(row(name).test_run?.tools).toEqual([{ name: tool, called: 1, returned: 0, errors: 1 }]);
    }
    const second = server.of('schema-args')[1];
    const toolMessage = (second.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('Invalid arguments for lookup');

    // The other reports were written too, with one entry per scenario.
    expect(readFileSync(join(out, 'junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(names.length);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/MODEL\\?_TIMEOUT/);
  });
});
