import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { runCli } from '../e2e/cli.js';
import { sendJson, startLocalServer, type LocalServer, type Route } from '../helpers/openai-server.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

// An http tool's header may read a secret from the environment (`{{ env.NAME }}`, docs/formats.md):
// the request carries the value, and no output of the run does, even under a variable whose name
// does not look secret, and even when the API and the model echo it back.

const TOKEN = 'ghp-env-header-0123456789';
/** Not a secret name: the value is scrubbed because the build sends it as a credential. */
const VARIABLE = 'PLAIN_SETTING';

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : statSync(path).isFile() ? [path] : [];
  });
}

/** A scripted agent whose http tool sends `Authorization: Bearer {{ env.<variable> }}` to `origin`'s `route`. */
function agentYaml(origin: string, variable: string, permission = 'allow', route = 'api'): string {
  return `id: env-header-bot
agent:
  name: Env header bot
  llm: {provider: scripted, model: m}
  tools:
    - name: call_api
      description: Call the API.
      permission: ${permission}
      parameters: {type: object, properties: {}}
      http: {url: "${origin}/${route}/echo", headers: {Authorization: "Bearer {{ env.${variable} }}"}}
`;
}

/** An API that echoes the headers it got, as an echo endpoint or a verbose 401 would, on `routes`. */
function echoServer(...routes: string[]): Promise<LocalServer> {
  const echo: Route = (request, res) => sendJson(res, 200, { headers: request.headers });
  return startLocalServer(Object.fromEntries(routes.map((route) => [route, echo])));
}

// The first two tests' scenarios are files of one suite, run once: each build calls its own route
// of the API, so each test counts its own requests; the scan for the token covers both.
const suite = shared(async (dir) => {
  const server = await echoServer('api', 'checked');
  try {
    const cwd = dir({
      'agent.yaml': agentYaml(server.origin, VARIABLE),
      'unset.yaml': agentYaml(server.origin, 'PLAIN_SETTNG').replace('id: env-header-bot', 'id: unset-bot'),
      'env.scenarios.yaml': `defaults:
  inputs: {messages: [{role: user, content: call the api}]}
scenarios:
  - name: token from env
    agent: agent.yaml
    model: {script: [{tool_calls: [{name: call_api}]}, {text: "the token is ${TOKEN}"}]}
    expect:
      checks:
        - tool_called: {tool: call_api}
        - output: {contains: "the token is [redacted]"}
  - name: variable not set
    agent: unset.yaml
    model: {script: [{tool_calls: [{name: call_api}]}, {text: done}]}
`,
      'checked.yaml': agentYaml(server.origin, VARIABLE, 'allow', 'checked').replace('id: env-header-bot', 'id: checked-bot'),
      'h.scenario.yaml': `name: header
agent: checked.yaml
inputs: {messages: [{role: user, content: call the api}]}
model: {script: [{tool_calls: [{name: call_api}]}, {text: done}]}
expect:
  checks:
    - tool_called: {tool: call_api, request: {headers: {authorization: "Bearer ${TOKEN}"}}}
`,
    });
    const out = join(cwd, 'out');
    const result = await runCli(['run', '.', '--out', out, '--reporter', 'table,json,md,junit,html'], cwd, { [VARIABLE]: TOKEN });
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const row = (name: string) => report.scenarios.find((one) => one.name === name)!;
    return { server, out, result, row };
  } finally {
    await server.close();
  }
});

describe("an http tool's header filled from the environment", () => {
  it('sends the value and keeps it out of spans.jsonl, the reports, the transcript, stdout and stderr; an unset variable errors the run naming it', async () => {
    const { server, out, result, row } = await suite();
    expect(result.exitCode, result.all).toBe(1);

    // The request carried the token, filled in from the environment, once: the unset run sent nothing.
    expect(server.of('api').map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(row('token from env').status, JSON.stringify(row('token from env'))).toBe('pass');
    expect(row('variable not set').error).toEqual({
      type: 'TEMPLATE_UNDEFINED',
      message: 'tool call_api: http.headers.Authorization needs the environment variable PLAIN_SETTNG, which is not set; did you mean "PLAIN_SETTING"?',
    });

    // The request is recorded with the credential [redacted]; the API's echo and the model's are
    // [redacted] in the transcript (the checks saw the same).
    const spans = readFileSync(join(out, 'spans.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { trace_id: string; name: string; attributes: Record<string, unknown> });
    const call = spans.find((span) => span.trace_id === row('token from env').test_run?.trace_id && span.name === 'execute_tool call_api')!;
    expect(JSON.parse(String(call.attributes['agentcheck.http.request.headers']))).toEqual({ Authorization: '[redacted]' });
    const transcript = row('token from env').transcript ?? [];
    const echoed = transcript.find((message) => message.role === 'tool');
    expect(echoed && JSON.parse(echoed.content).headers.authorization).toBe('[redacted]');
    expect(transcript.at(-1)).toMatchObject({ role: 'assistant', content: 'the token is [redacted]' });
    const leaks = [...filesUnder(out).map((file) => [file, readFileSync(file, 'utf8')]), ['stdout', result.stdout], ['stderr', result.stderr]]
      .filter(([, text]) => text.includes(TOKEN))
      .map(([where]) => where);
    expect(leaks).toEqual([]);
  });

  it('a request check that expects the header with its secret fails saying secrets are compared as [redacted], never showing the value', async () => {
    const { server, result, row } = await suite();
    expect(result.exitCode, result.all).toBe(1);
    expect(server.of('checked')).toHaveLength(1);
    // Both sides read [redacted] once scrubbed: the hint says why they differ and what to write.
    expect(row('header').checks[0].reason).toBe(
      'expected call_api to be called at least once with matching request; saw call_api x1; closest: call_api call 1: request at headers.authorization: expected "[redacted]", got "[redacted]"; the run\'s secrets are compared as [redacted], never as their values ("a secret one reads [redacted]", docs/verdicts.md): write "[redacted]" where the secret goes (authorization: "[redacted]"), or {$any: true} for a header that need only be there',
    );
    expect(result.all).not.toContain(TOKEN);
  });

  it('a paused test-run holds a marker for the value, and resume sends the header filled from its own environment', async () => {
    const server = await echoServer('api');
    onTestFinished(() => server.close());
    const dir = tempDir({ 'agent.yaml': agentYaml(server.origin, VARIABLE, 'ask'), 'script.yaml': '- tool_calls: [{name: call_api}]\n- text: done\n' });
    const base = ['--spans', 'out/spans.jsonl', '--json'];
    const paused = await runCli(
      ['test-run', '--agent', 'agent.yaml', '--message', `call the api with ${TOKEN}`, '--script', 'script.yaml', '--terminal-tool', 'call_api', ...base],
      dir,
      { [VARIABLE]: TOKEN },
    );
    expect(paused.exitCode, paused.all).toBe(1);
    const runId = JSON.parse(paused.stdout).run_id as string;
    const checkpoint = readFileSync(join(dir, 'out', `${runId}.checkpoint.json`), 'utf8');
    expect(checkpoint).not.toContain(TOKEN);
    expect(checkpoint).toContain(`call the api with [secret:${VARIABLE}]`);
    expect(Object.keys(JSON.parse(checkpoint).secrets)).toEqual([VARIABLE]);
    expect(server.of('api')).toHaveLength(0);

    const unset = await runCli(['resume', runId, '--decision', 'approve', ...base], dir);
    expect(unset.exitCode, unset.all).toBe(2);
    expect(unset.stderr).toContain(`at secrets.${VARIABLE}: the paused run holds the value of the secret variable ${VARIABLE}, which is not set here`);

    const resumed = await runCli(['resume', runId, '--decision', 'approve', ...base], dir, { [VARIABLE]: TOKEN });
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(server.of('api').map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8') + resumed.all).not.toContain(TOKEN);
  });
});
