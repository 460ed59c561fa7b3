import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { runCli } from '../e2e/cli.js';
import { scriptedChat, sendJson, startLocalServer, type LocalServer } from '../helpers/openai-server.js';
import { tempDir } from '../helpers/temp-dir.js';

// Secrets never reach an output: an OpenAI key and an http tool's Authorization header, with
// servers that echo them back in errors and bodies, scanned for in every file the run wrote.

const API_KEY = 'sk-live-SECRET-123';
const TOKEN = 'tok-SECRET-456';
const SECRETS = [API_KEY, TOKEN, 'SECRET-123', 'SECRET-456'];

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : statSync(path).isFile() ? [path] : [];
  });
}

let server: LocalServer;

beforeEach(async () => {
  server = await startLocalServer({
    // The model: calls the API three ways (ok, rejected with the token echoed, headers echoed),
    // then a tool on a closed port, then answers.
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
    // The API behind the http tool.
    api: (req, res) => {
      if (req.url.endsWith('/ok')) return sendJson(res, 200, { ok: true });
      if (req.url.endsWith('/deny')) return sendJson(res, 401, { error: `invalid token: ${req.headers.authorization}` });
      return sendJson(res, 200, { headers: req.headers });
    },
  });
});

afterEach(async () => {
  await server?.close();
});

describe('secrets never reach an output file', () => {
  // With cassettes recording, the cassette layer scrubs too; without, the tools must on their own.
  it.each([['off'], ['record']])(
    'keeps the API key and the Authorization header out of reports, spans, cassettes, stdout and stderr (cassettes %s)',
    async (cassettes) => {
      const agent = `id: secret-bot
agent:
  name: Secret bot
  llm: {provider: openai, model: m, base_url: "${server.baseUrl('tools')}", timeout_ms: 3000, max_retries: 1}
  tools:
    - name: call_api
      description: Call the API.
      parameters: {type: object, properties: {path: {type: string}}, required: [path]}
      http: {url: "${server.origin}/api/{{ args.path }}", headers: {Authorization: "Bearer ${TOKEN}", x-api-key: "${TOKEN}"}}
    - name: call_closed
      description: Call a closed port.
      parameters: {type: object}
      http: {method: POST, url: "http://127.0.0.1:9/x", headers: {Authorization: "Bearer ${TOKEN}"}, body: {token: "not-a-header-secret"}}
    - name: dump_env
      description: Print the environment.
      # env(1), not a node script: the same environment printed, for a fraction of the CPU.
      parameters: {type: object}
      command: {argv: [env]}
`;
      const suite = `defaults:
  agent: agent.yaml
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
`;
      const dir = tempDir({ 'agent.yaml': agent, 'secrets.scenarios.yaml': suite });
      const out = join(dir, 'out');
      const result = await runCli(['run', '.', '--out', out, '--reporter', 'table,json,md,junit', '--cassettes', cassettes, '--concurrency', '4'], dir, {
        OPENAI_API_KEY: API_KEY,
        ANTHROPIC_API_KEY: `sk-ant-${API_KEY}`,
      });
      expect(result.exitCode, result.all).toBe(1);

      // The run did what it should, so the scan below is over real traffic.
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      const row = (name: string) => report.scenarios.find((r) => r.name === name)!;
      expect(report.scenarios).toHaveLength(5);
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
      expect(server.of('api').every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
      expect(server.of('unauthorized')[0].headers.authorization).toBe(`Bearer ${API_KEY}`);

      const written = [...filesUnder(out), ...filesUnder(join(dir, 'fixtures', 'cassettes'))];
      expect(written.map((file) => file.slice(dir.length + 1)).sort()).toEqual(
        expect.arrayContaining(['out/junit.xml', 'out/report.json', 'out/report.md', 'out/spans.jsonl']),
      );
      expect(written.some((file) => file.includes('cassettes'))).toBe(cassettes === 'record');
      const leaks: string[] = [];
      for (const [where, text] of [...written.map((file) => [file, readFileSync(file, 'utf8')]), ['stdout', result.stdout], ['stderr', result.stderr]]) {
        for (const secret of SECRETS) if (text.includes(secret)) leaks.push(`${secret} in ${where.slice(dir.length + 1) || where}`);
      }
      expect(leaks).toEqual([]);

      // The model never saw the token either: the echoed header was redacted in the tool result.
      for (const request of server.of('tools')) expect(request.text).not.toContain('SECRET-456');
    },
  );
});
