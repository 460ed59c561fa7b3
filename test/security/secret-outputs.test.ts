import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { runCli } from '../e2e/cli.js';
import { chatCompletion, sendJson, startLocalServer, type LocalServer } from '../helpers/openai-server.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { runMain } from '../helpers/run-main.js';
import { linesAbout, shared } from '../helpers/shared-fixture.js';
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

let server: LocalServer;
let otlp: OtlpReceiver;

beforeEach(async () => {
  server = await startLocalServer({
    // A model that repeats every key it can think of.
    echo: (_req, res) => sendJson(res, 200, chatCompletion({ text: `my key is ${SECRETS.env}, the parameter ${SECRETS.parameter}` })),
    api: (req, res) => sendJson(res, 200, { headers: req.headers }),
  });
  otlp = await startOtlpReceiver();
});

afterEach(async () => {
  await server?.close();
  await otlp?.close();
});

describe('secrets stay out of every output', () => {
  it.each([['off'], ['record']])('report.json, md, junit, html, spans.jsonl, OTLP, cassettes, stdout and stderr (cassettes %s)', async (cassettes) => {
    const agent = `id: leaky
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
    const suite = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
scenarios:
  - name: the model repeats the keys
  - name: no mock matched a URL with credentials
    mocks: {http: []}
    model: {script: [{tool_calls: [{name: call_query}]}, {text: done}]}
  - name: headers echoed back
    model: {script: [{tool_calls: [{name: call_headers}]}, {text: done}]}
`;
    const dir = tempDir({ 'agent.yaml': agent, 'leaky.scenarios.yaml': suite });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--out', out, '--reporter', 'table,json,md,junit,html', '--otlp', otlp.url, '--cassettes', cassettes], dir, {
      OPENAI_API_KEY: SECRETS.env,
    });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const row = (name: string) => report.scenarios.find((r) => r.name === name)!;
    // The run did what it should, so the scan is over real traffic.
    expect(row('the model repeats the keys').test_run?.output).toContain('my key is [redacted]');
    if (cassettes === 'off') expect(row('no mock matched a URL with credentials').reason).toContain('api_key=[redacted]&access_token=[redacted]&page=2');
    expect(server.of('echo')[0].body).toMatchObject({ api_key: SECRETS.parameter });
    expect(server.of('api')[0].headers['x-auth-key']).toBe(SECRETS.authKey);

    const texts: Array<[string, string]> = [
      ...filesUnder(dir).map((file): [string, string] => [file.slice(dir.length + 1), readFileSync(file, 'utf8')]),
      ['stdout', result.stdout] as [string, string],
      ['stderr', result.stderr] as [string, string],
      ['otlp', JSON.stringify(otlp.received)] as [string, string],
    ].filter(([where]) => !where.endsWith('.yaml'));
    expect(texts.some(([where]) => where.endsWith('report.html'))).toBe(true);
    expect(texts.some(([where]) => where.includes('cassettes'))).toBe(cassettes === 'record');
    expect(otlp.received.length).toBeGreaterThan(0);
    const leaks = texts.flatMap(([where, text]) =>
      Object.entries(SECRETS)
        .filter(([, secret]) => text.includes(secret))
        .map(([name]) => `${name} in ${where}`),
    );
    expect(leaks).toEqual([]);
  });

  it('output checks and a judge grader see the run scrubbed, as every other check does: the key never goes into a grader request body', async () => {
    await server.close();
    server = await startLocalServer({
      grader: (_req, res) => sendJson(res, 200, chatCompletion({ text: '{"score": 1, "passed": true, "reason": "fine"}' })),
    });
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
