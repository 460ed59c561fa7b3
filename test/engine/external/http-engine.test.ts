import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoke } from '../../../src/engine/invoke.js';
import { ScriptedModel, type ScriptEntry } from '../../../src/engine/providers/scripted.js';
import { applyDelta } from '../../../src/engine/revision/delta.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { waitUntilGone } from '../../helpers/process-state.js';
import { NO_MODEL_CALL } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * A small agent server: GET /health; POST /invoke asks the model bridge once (the config's
 * instructions as system prompt) and answers {output, trace_id}. POST /echo-auth answers 401
 * quoting the Authorization header it got, as a careless server would.
 */
const SERVER = `
const http = require('node:http');
const server = http.createServer(async (req, res) => {
  if (req.method === 'GET' && req.url === '/health') return res.end('ok');
  let text = '';
  for await (const chunk of req) text += chunk;
  if (req.url === '/echo-auth') {
    res.writeHead(401, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ error: 'bad token ' + req.headers.authorization }));
  }
  const input = JSON.parse(text);
  const model = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'system', content: input.config.instructions }, ...input.messages] }),
  }).then((response) => response.json());
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ output: model.choices[0].message.content + ' | delta ' + JSON.stringify(input.delta), trace_id: 'remote-trace-9' }));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
`;

async function run(external: Record<string, unknown>, script: ScriptEntry[], env: Record<string, string> = {}, delta?: unknown) {
  const { tracer, store } = installTracing();
  const base = revisionFromValue({ id: 'remote-bot', external });
  const revision = delta ? applyDelta(base, delta) : base;
  const model = new ScriptedModel(script);
  const turn = await invoke(revision, { messages: [{ role: 'user', content: 'Hi' }] }, { model, tracer, env: { PATH: process.env.PATH, ...env } });
  return { turn, spans: store.take(turn.trace_id), model };
}

describe('http engine: a server agentcheck started', () => {
  it('is still running when beforeExternalStop is awaited after its answer (the runner waits there for late spans), and stopped after', async () => {
    // The server notes its port, so the test can ask it whether it is still up.
    const dir = tempDir({ 'server.cjs': `require('node:fs').writeFileSync(require('node:path').join(__dirname, 'port.txt'), process.env.PORT);\n${SERVER}` });
    const portFile = join(dir, 'port.txt');
    const health = async () => {
      const port = readFileSync(portFile, 'utf8');
      return fetch(`http://127.0.0.1:${port}/health`).then(
        (response) => response.ok,
        () => false,
      );
    };
    const seen: boolean[] = [];
    const { tracer } = installTracing();
    const revision = revisionFromValue({
      id: 'started',
      external: { http: { url: 'http://127.0.0.1:{port}/invoke', start: { command: [process.execPath, join(dir, 'server.cjs')], ready_path: '/health' } } },
    });
    const turn = await invoke(
      revision,
      { messages: [{ role: 'user', content: 'Hi' }] },
      {
        model: new ScriptedModel([{ text: 'Hello' }]),
        tracer,
        env: { PATH: process.env.PATH },
        beforeExternalStop: async () => {
          seen.push(await health());
        },
      },
    );
    expect(turn.stop_reason).toBe('end_turn');
    expect(seen).toEqual([true]);
    expect(await health()).toBe(false);
  });
});

describe('http engine: a started server whose child leaves its group and keeps its stderr', () => {
  it('answers the run, and the child is ended with it instead of holding the run and the process', async () => {
    // setsid gives the sleep a session of its own; it inherits the server's stderr pipe.
    const dir = tempDir({
      'server.cjs': `const { spawn } = require('node:child_process');
const child = spawn('setsid', ['sleep', '187'], { stdio: 'inherit' });
require('node:fs').writeFileSync(require('node:path').join(__dirname, 'child.pid'), String(child.pid));
${SERVER}`,
    });
    const external = {
      http: { url: 'http://127.0.0.1:{port}/invoke', start: { command: [process.execPath, join(dir, 'server.cjs')], ready_path: '/health' } },
    };
    const { turn } = await run(external, [{ text: 'Hello' }]);
    expect(turn.error).toBeUndefined();
    expect(turn.output).toContain('Hello');
    const pid = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
    await waitUntilGone(pid);
  }, 60_000);
});

describe('http engine', () => {
  it('starts the server, POSTs messages, config and the delta, and reads {output, trace_id}; the server is ended after', async () => {
    const dir = tempDir({ 'server.cjs': SERVER });
    const external = {
      config: { instructions: 'Be terse.' },
      http: { url: 'http://127.0.0.1:{port}/invoke', start: { command: [process.execPath, join(dir, 'server.cjs')], ready_path: '/health' } },
    };
    const { turn, spans, model } = await run(external, [{ text: 'Hello!' }], {}, { set: { external: { config: { instructions: 'Be formal.' } } } });
    expect(turn.error).toBeUndefined();
    expect(turn.output).toBe('Hello! | delta {"set":{"external":{"config":{"instructions":"Be formal."}}}}');
    expect(turn.external).toEqual({ kind: 'http', trace_id: 'remote-trace-9' });
    expect(model.requests[0].system).toBe('Be formal.');
    expect(spans.filter((span) => span.name.startsWith('chat '))).toHaveLength(1);
    const resolved = JSON.parse(String(spans.find((span) => span.name.startsWith('invoke_agent'))?.attributes['agentcheck.resolved_config']));
    expect(resolved.external).toMatchObject({ kind: 'http', url: 'http://127.0.0.1:{port}/invoke', start: [process.execPath, join(dir, 'server.cjs')] });
    // The server's process group was ended with the run: nothing was left for the run to reap.
    expect(spans.find((span) => span.name.startsWith('invoke_agent'))?.attributes['agentcheck.processes.killed']).toBeUndefined();
  });

  it('fills headers from the environment, never shows their values, and errors on a non-2xx answer', async () => {
    const dir = tempDir({ 'server.cjs': SERVER });
    const external = {
      http: {
        url: 'http://127.0.0.1:{port}/echo-auth',
        headers: { Authorization: 'Bearer {{ env.AGENT_TOKEN }}' },
        start: { command: [process.execPath, join(dir, 'server.cjs')], ready_path: '/health' },
      },
    };
    const { turn, spans } = await run(external, NO_MODEL_CALL, { AGENT_TOKEN: 'tok-header-secret-42' });
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.message).toContain('answered HTTP 401');
    expect(JSON.stringify(turn)).not.toContain('tok-header-secret-42');
    const all = JSON.stringify(spans);
    expect(all).not.toContain('tok-header-secret-42');
    expect(all).toContain('\\"headers\\":[\\"Authorization\\"]');
  });

  it('a server that exits before it is ready errors the turn with its stderr', async () => {
    const dir = tempDir({ 'server.cjs': 'console.error("port taken"); process.exit(2);' });
    const { turn } = await run({ http: { url: 'http://127.0.0.1:{port}/', start: { command: [process.execPath, join(dir, 'server.cjs')] } } }, NO_MODEL_CALL);
    expect(turn.error?.type).toBe('EXTERNAL_SERVER_FAILED');
    expect(turn.error?.message).toContain('port taken');
  });

  it('a server that prints its environment before it exits has the secrets scrubbed from the error', async () => {
    const dir = tempDir({ 'server.cjs': 'console.error(JSON.stringify(process.env)); process.exit(2);' });
    const external = {
      http: { url: 'http://127.0.0.1:{port}/', start: { command: [process.execPath, join(dir, 'server.cjs')] } },
      env: { DB_PASSWORD: 'pw-literal-secret-456', MODE: 'plain-mode-value' },
    };
    const { turn, spans } = await run(external, NO_MODEL_CALL);
    expect(turn.error?.type).toBe('EXTERNAL_SERVER_FAILED');
    expect(turn.error?.message).toContain('"DB_PASSWORD":"[redacted]"');
    expect(turn.error?.message).toContain('plain-mode-value');
    expect(JSON.stringify({ turn, spans })).not.toContain('pw-literal-secret-456');
  });

  it('does not follow a redirect: a 302 to the POST is a non-2xx answer with its status and Location, and no GET follows it', async () => {
    // Every GET answers "ok" (a followed redirect would have read that as the answer), the ready
    // path redirects too (a redirect is the server's answer, below 500); each request is logged.
    const dir = tempDir({
      'server.cjs': `
const fs = require('node:fs');
const log = require('node:path').join(__dirname, 'requests.log');
require('node:http').createServer((req, res) => {
  fs.appendFileSync(log, req.method + ' ' + req.url + '\\n');
  if (req.method === 'GET' && req.url !== '/ready') return res.end('ok');
  res.writeHead(302, { location: '/x?session=abc' }).end('moved');
}).listen(Number(process.env.PORT), '127.0.0.1');
`,
    });
    const start = { command: [process.execPath, join(dir, 'server.cjs')], ready_path: '/ready' };
    const { turn } = await run({ http: { url: 'http://127.0.0.1:{port}/invoke', start } }, NO_MODEL_CALL);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.type).toBe('EXTERNAL_AGENT_FAILED');
    expect(turn.error?.message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/invoke answered HTTP 302 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/x, not followed\): moved$/,
    );
    const requests = readFileSync(join(dir, 'requests.log'), 'utf8').trim().split('\n');
    expect(requests.at(-1)).toBe('POST /invoke');
    expect(requests.filter((request) => request.includes('/x'))).toEqual([]);
  });

  it('an unset variable in a header is an error naming it', async () => {
    const { turn } = await run({ http: { url: 'http://127.0.0.1:9/', headers: { 'x-key': '{{ env.MISSING_VAR }}' } } }, NO_MODEL_CALL);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.message).toContain('MISSING_VAR');
  });
});
