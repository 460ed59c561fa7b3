import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { runCli } from '../e2e/cli.js';
import { chatCompletion, scriptedChat, sendJson, startLocalServer } from '../helpers/openai-server.js';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { runMain } from '../helpers/run-main.js';
import { linesAbout, shared, type SharedDir } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

// Every key the run was given stays out of every output, however it gets there: a model reply
// that repeats it, a failing URL's query, a provider parameter, echoed headers, a base_url password.

const SECRETS = {
  env: 'sk-env-KEY-0a1b2c3d',
  parameter: 'param-KEY-4e5f6a7b',
  query: 'qk-KEY-8c9d0e1f',
  accessToken: 'at-KEY-2a3b4c5d',
  authKey: 'xak-KEY-6e7f8a9b',
  apim: 'apim-KEY-0c1d2e3f',
  functions: 'fn-KEY-4a5b6c7d',
  basePassword: 'bu-KEY-8e9f0a1b',
};

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : statSync(path).isFile() ? [path] : [];
  });
}

/** The http tool's token and the keys of secrets.scenarios.yaml, and fragments of them (a key cut short in an error). */
const API_TOKEN = 'tok-SECRET-456';
const SECRET_TEXTS = [SECRETS.env, API_TOKEN, 'env-KEY-0a1b2c3d', 'SECRET-456'];

/**
 * One run per cassettes mode of two suites beside each other, each with its own build: leaky
 * (leaky.scenarios.yaml: a model that repeats the keys, a failing URL's query, echoed headers, a
 * provider parameter) and secret-bot (secrets.scenarios.yaml: an OpenAI key and an http tool's
 * Authorization header, with servers that echo them back in errors and bodies, a command tool
 * that prints its environment). With cassettes recording the cassette layer scrubs too; without,
 * the tools must on their own. Each test of the mode reads the rows of its own suite; each scans
 * every output of the run.
 */
async function leakRun(cassettes: string, make: SharedDir) {
  const server = await startLocalServer({
    // A model that repeats every key it can think of.
    echo: (_req, res) => sendJson(res, 200, chatCompletion({ text: `my key is ${SECRETS.env}, the parameter ${SECRETS.parameter}` })),
    api: (req, res) => sendJson(res, 200, { headers: req.headers }),
    // secret-bot's model: calls the service three ways (ok, rejected with the token echoed,
    // headers echoed), then a tool on a closed port, then answers.
    tools: scriptedChat([
      { toolCalls: [{ name: 'call_api', arguments: '{"path":"ok"}' }] },
      { toolCalls: [{ name: 'call_api', arguments: '{"path":"deny"}' }] },
      { toolCalls: [{ name: 'call_api', arguments: '{"path":"echo"}' }] },
      { toolCalls: [{ name: 'call_closed', arguments: '{}' }] },
      { text: 'done' },
    ]),
    // Model endpoints that echo the API key back, as real providers do in 401 messages.
    unauthorized: (req, res) =>
      sendJson(res, 401, { error: { message: `Incorrect API key provided: ${String(req.headers.authorization).replace('Bearer ', '')}` } }),
    broken: (req, res) => sendJson(res, 500, { error: { message: `internal error for ${req.headers.authorization}` } }),
    garbage: (req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html>upstream said ${req.headers.authorization}</html>`),
    // The service behind secret-bot's http tool.
    service: (req, res) => {
      if (req.url.endsWith('/ok')) return sendJson(res, 200, { ok: true });
      if (req.url.endsWith('/deny')) return sendJson(res, 401, { error: `invalid token: ${req.headers.authorization}` });
      return sendJson(res, 200, { headers: req.headers });
    },
  });
  const otlp = await startOtlpReceiver();
  try {
    const leaky = `id: leaky
agent:
  name: Leaky
  llm: {provider: openai, model: m, base_url: "${server.baseUrl('echo')}", max_retries: 0, parameters: {extra: {api_key: "${SECRETS.parameter}"}}}
  tools:
    - name: call_query
      description: q
      parameters: {type: object}
      http: {url: "https://api.test/v1/items?api_key=${SECRETS.query}&access_token=${SECRETS.accessToken}&page=2"}
    - name: call_headers
      description: h
      parameters: {type: object}
      http:
        url: "${server.origin}/api/echo"
        headers: {X-Auth-Key: "${SECRETS.authKey}", Ocp-Apim-Subscription-Key: "${SECRETS.apim}", x-functions-key: "${SECRETS.functions}"}
`;
    const secretBot = `id: secret-bot
agent:
  name: Secret bot
  llm: {provider: openai, model: m, base_url: "${server.baseUrl('tools')}", timeout_ms: 3000, max_retries: 1}
  tools:
    - name: call_api
      description: Call the API.
      parameters: {type: object, properties: {path: {type: string}}, required: [path]}
      http: {url: "${server.origin}/service/{{ args.path }}", headers: {Authorization: "Bearer ${API_TOKEN}", x-api-key: "${API_TOKEN}"}}
    - name: call_closed
      description: Call a closed port.
      parameters: {type: object}
      http: {method: POST, url: "http://127.0.0.1:9/x", headers: {Authorization: "Bearer ${API_TOKEN}"}, body: {token: "not-a-header-secret"}}
    - name: dump_env
      description: Print the environment.
      # env(1), not a node script: the same environment printed, for a fraction of the CPU.
      parameters: {type: object}
      command: {argv: [env]}
`;
    const dir = make({
      'agent.yaml': leaky,
      'leaky.scenarios.yaml': `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
scenarios:
  - name: the model repeats the keys
  - name: no mock matched a URL with credentials
    mocks: {http: []}
    model: {script: [{tool_calls: [{name: call_query}]}, {text: done}]}
  - name: headers echoed back
    model: {script: [{tool_calls: [{name: call_headers}]}, {text: done}]}
`,
      'secret-bot.yaml': secretBot,
      'secrets.scenarios.yaml': `defaults:
  agent: secret-bot.yaml
  inputs: {messages: [{role: user, content: go}]}
scenarios:
  - name: http tool with a token
    expect: {terminal_tool: call_api}
  - name: model rejects the key
    model: {base_url: "${server.baseUrl('unauthorized')}"}
  - name: model fails with the key in its error
    model: {base_url: "${server.baseUrl('broken')}"}
  - name: model answers garbage with the key in it
    model: {base_url: "${server.baseUrl('garbage')}"}
  - name: command tool reads its environment
    model: {script: [{tool_calls: [{name: dump_env}]}, {text: done}]}
`,
    });
    const out = join(dir, 'out');
    const reporters = 'table,json,md,junit,html';
    const result = await runCli(['run', '.', '--out', out, '--reporter', reporters, '--otlp', otlp.url, '--cassettes', cassettes, '--concurrency', '4'], dir, {
      OPENAI_API_KEY: SECRETS.env,
      ANTHROPIC_API_KEY: `sk-ant-${SECRETS.env}`,
    });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const row = (name: string) => report.scenarios.find((r) => r.name === name)!;
    // Every output of the run: the files it wrote (not the suite's YAML), stdout, stderr and the spans exported over OTLP.
    const texts: Array<[string, string]> = [
      ...filesUnder(dir).map((file): [string, string] => [file.slice(dir.length + 1), readFileSync(file, 'utf8')]),
      ['stdout', result.stdout] as [string, string],
      ['stderr', result.stderr] as [string, string],
      ['otlp', JSON.stringify(otlp.received)] as [string, string],
    ].filter(([where]) => !where.endsWith('.yaml'));
    return { result, report, row, texts, requests: (route: string) => server.of(route), exported: otlp.received.length };
  } finally {
    await server.close();
    await otlp.close();
  }
}

describe('secrets stay out of every output', () => {
  const runs: Record<string, () => ReturnType<typeof leakRun>> = {
    off: shared((make) => leakRun('off', make)),
    record: shared((make) => leakRun('record', make)),
  };

  it.each([['off'], ['record']])('report.json, md, junit, html, spans.jsonl, OTLP, cassettes, stdout and stderr (cassettes %s)', async (cassettes) => {
    const { row, texts, requests, exported } = await runs[cassettes]();
    // The run did what it should, so the scan is over real traffic.
    expect(row('the model repeats the keys').test_run?.output).toContain('my key is [redacted]');
    if (cassettes === 'off') expect(row('no mock matched a URL with credentials').reason).toContain('api_key=[redacted]&access_token=[redacted]&page=2');
    expect(requests('echo')[0].body).toMatchObject({ api_key: SECRETS.parameter });
    expect(requests('api')[0].headers['x-auth-key']).toBe(SECRETS.authKey);

    expect(texts.some(([where]) => where.endsWith('report.html'))).toBe(true);
    expect(texts.some(([where]) => where.includes('cassettes'))).toBe(cassettes === 'record');
    expect(exported).toBeGreaterThan(0);
    const leaks = texts.flatMap(([where, text]) =>
      Object.entries(SECRETS)
        .filter(([, secret]) => text.includes(secret))
        .map(([name]) => `${name} in ${where}`),
    );
    expect(leaks).toEqual([]);
  });

  it.each([['off'], ['record']])(
    'keeps the API key and the Authorization header out of reports, spans, cassettes, stdout and stderr (cassettes %s)',
    async (cassettes) => {
      const { result, report, row, texts, requests } = await runs[cassettes]();
      expect(result.exitCode, result.all).toBe(1);

      // The run did what it should, so the scan below is over real traffic.
      expect(report.scenarios.filter((r) => r.id.startsWith('secrets.scenarios.yaml#'))).toHaveLength(5);
      expect(row('http tool with a token').test_run?.tools).toEqual([
        { name: 'call_api', called: 3, returned: 2, errors: 1 },
        { name: 'call_closed', called: 1, returned: 0, errors: 1 },
      ]);
      expect(row('model rejects the key').error).toMatchObject({
        type: 'MODEL_REQUEST_REJECTED',
        message: expect.stringContaining('Incorrect API key provided: [redacted]'),
      });
      expect(row('model fails with the key in its error').error?.type).toBe('MODEL_RETRIES_EXHAUSTED');
      expect(row('model answers garbage with the key in it').error?.type).toBe('MODEL_BAD_RESPONSE');
      expect(row('command tool reads its environment').status).toBe('pass');
      expect(requests('service').every((request) => request.headers.authorization === `Bearer ${API_TOKEN}`)).toBe(true);
      expect(requests('unauthorized')[0].headers.authorization).toBe(`Bearer ${SECRETS.env}`);

      const written = texts.map(([where]) => where);
      expect(written).toEqual(expect.arrayContaining(['out/junit.xml', 'out/report.json', 'out/report.md', 'out/spans.jsonl']));
      expect(written.some((where) => where.includes('cassettes'))).toBe(cassettes === 'record');
      const leaks = texts.flatMap(([where, text]) => SECRET_TEXTS.filter((secret) => text.includes(secret)).map((secret) => `${secret} in ${where}`));
      expect(leaks).toEqual([]);

      // The model never saw the token either: the echoed header was redacted in the tool result.
      for (const request of requests('tools')) expect(request.text).not.toContain('SECRET-456');
    },
  );

  it('output checks and a judge grader see the run scrubbed, as every other check does: the key never goes into a grader request body', async () => {
    const server = await startLocalServer({
      grader: (_req, res) => sendJson(res, 200, chatCompletion({ text: '{"score": 1, "passed": true, "reason": "fine"}' })),
    });
    onTestFinished(() => server.close());
    const agent = `id: talker
agent:
  name: Talker
  llm: {provider: scripted, model: s}
  tools:
    - {name: echo, description: e, builtin: echo}
`;
    const scenario = `name: the reply repeats the key
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model:
  script:
    - tool_calls: [{name: echo, args: {text: "tool ${SECRETS.env}"}}]
    - text: "key ${SECRETS.env}"
expect:
  checks:
    - output: {contains: "${SECRETS.env}"}
    - output: {contains: "key [redacted]"}
    - judge: {rubric: fine, include: [output, tool_calls, transcript], model: {provider: openai, model: g, base_url: "${server.baseUrl('grader')}", max_retries: 0}}
`;
    const dir = tempDir({ 'agent.yaml': agent, 'a.scenario.yaml': scenario });
    const out = join(dir, 'out');
    // In-process (runMain): what is read is the report and the grader's requests, not the run's
    // output, which the tests above and below scan on the built CLI.
    const result = await runMain(['run', '.', '--out', out, '--reporter', 'json'], dir, { OPENAI_API_KEY: SECRETS.env });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const checks = report.scenarios[0].checks!.map((check) => check.status);
    expect(checks, result.all).toEqual(['fail', 'pass', 'pass']);
    const graded = server.of('grader');
    expect(graded).toHaveLength(1);
    // The grader got the run (the reply and the tool's result), with the key as [redacted].
    expect(graded[0].text).toContain('key [redacted]');
    expect(graded[0].text).toContain('tool [redacted]');
    expect(graded[0].text).not.toContain(SECRETS.env);
  });

  // One suite of files refused at load, run and validated once: token.txt, which holds a key, named
  // where a build or delta belongs, a key written as a value, and a base_url with a password.
  const TOKEN = 'svctok-ABCDEFGH-98765';
  const refusedAtLoad = shared(async (dir) => {
    const cwd = dir({
      'agent.yaml': 'id: b\nagent:\n  name: B\n',
      'token.txt': `SVC=${TOKEN}\n`,
      // A hostile scenario points at a file that holds a key; another writes the key as a value.
      'a.scenario.yaml': 'name: a\nagent: agent.yaml\ndelta: token.txt\ninputs: {messages: [{role: user, content: hi}]}\n',
      'b.scenario.yaml': 'name: b\nagent: token.txt\ninputs: {messages: [{role: user, content: hi}]}\n',
      'c.scenario.yaml': `name: c\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\ntimeout_ms: "${TOKEN}"\n`,
      'openai.yaml': 'id: o\nagent:\n  name: O\n  llm: {provider: openai, model: m, max_retries: 0}\n',
      'password.scenario.yaml': `name: a base_url with a password\nagent: openai.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: {base_url: "http://user:${SECRETS.basePassword}@127.0.0.1:9/v1"}\n`,
    });
    const env = { SVC_TOKEN: TOKEN, OPENAI_API_KEY: SECRETS.env };
    const run = await runCli(['run', '.', '--out', join(cwd, 'out')], cwd, env);
    const validate = await runCli(['validate', '.'], cwd, env);
    return { cwd, results: { run, validate } };
  });

  it("a file a scenario names where a build or delta belongs is not quoted, and no load error shows the environment's keys", async () => {
    const { cwd: dir, results } = await refusedAtLoad();
    const testRun = await runCli(['test-run', '--agent', 'token.txt', '--message', 'hi'], dir, { SVC_TOKEN: TOKEN });
    for (const [command, result] of Object.entries({ ...results, testRun })) {
      expect(result.exitCode, `${command}: ${result.all}`).toBe(2);
      expect(result.all, command).not.toContain(TOKEN);
      expect(result.all, command).not.toContain('SVC=');
    }
    // A .json file is read as JSON, whose errors quote none of its text either; nor does a spans file's.
    writeFileSync(join(dir, 'token.json'), `${TOKEN}\n`);
    for (const command of [
      ['test-run', '--agent', 'token.json', '--message', 'hi'],
      ['spans', 'query', 'token.txt'],
    ]) {
      const result = await runCli(command, dir);
      expect(result.exitCode, result.all).toBe(2);
      expect(result.all).not.toContain(TOKEN.slice(1, 8));
    }
    expect(results.validate.stderr).toContain('delta file');
    expect(results.validate.stderr).toContain('got text (25 characters, not shown)');
    expect(results.validate.stderr).toContain('at timeout_ms: expected integer, got string "[redacted]"');
  });

  it('a base_url with a password is refused at load, and the error does not echo the password', async () => {
    const { results } = await refusedAtLoad();
    for (const [command, result] of Object.entries(results)) {
      expect(result.exitCode, `${command}: ${result.all}`).toBe(2);
      const lines = linesAbout(result.stderr, 'password.scenario.yaml');
      expect(lines, command).toContain('at model.base_url: expected an http:// or https:// URL');
      expect(lines, command).toContain('http://user:[redacted]@127.0.0.1:9/v1');
      expect(result.all, command).not.toContain(SECRETS.basePassword);
    }
  });
});
