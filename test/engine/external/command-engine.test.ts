import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoke } from '../../../src/engine/invoke.js';
import { ScriptedModel, type ScriptEntry } from '../../../src/engine/providers/scripted.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { NO_MODEL_CALL } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { isRunning, waitForPidFile, waitUntilGone } from '../../helpers/process-state.js';

/**
 * An OpenAI-style agent on plain fetch: asks the bridge, "runs" each tool call (get_weather fails
 * for Atlantis), answers with {"output"} on stdout. MODE=skip never sends the tool results back.
 */
const OPENAI_AGENT = `
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const messages = [{ role: 'system', content: 'Weather bot' }, ...input.messages];
const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
(async () => {
  for (let step = 0; step < 5; step++) {
    const response = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.OPENAI_API_KEY },
      body: JSON.stringify({ model: 'gpt-x', messages, tools }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error('model call failed: ' + JSON.stringify(body));
    const message = body.choices[0].message;
    messages.push(message);
    if (!message.tool_calls || process.env.MODE === 'skip') {
      process.stdout.write(JSON.stringify({ output: message.content ?? 'gave up', trace_id: 'remote-1' }));
      return;
    }
    for (const call of message.tool_calls) {
      const { city } = JSON.parse(call.function.arguments);
      const content = city === 'Atlantis' ? JSON.stringify({ error: 'unknown city' }) : 'sunny in ' + city;
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
  }
})().catch((error) => { console.error(error.message); process.exit(1); });
`;

async function run(external: Record<string, unknown>, script: ScriptEntry[], env: Record<string, string> = {}) {
  const { tracer, store } = installTracing();
  const revision = revisionFromValue({ id: 'ext-bot', external });
  const turn = await invoke(
    revision,
    { messages: [{ role: 'user', content: 'Weather?' }] },
    { model: new ScriptedModel(script), tracer, env: { PATH: process.env.PATH, ...env } },
  );
  return { turn, spans: store.take(turn.trace_id) };
}

describe('command engine', () => {
  it("blames the harness's limits, not the agent, when the agent fails on their refusal: an exhausted script, max_turns", async () => {
    const dir = tempDir({ 'agent.cjs': OPENAI_AGENT });
    const agent = { command: [process.execPath, join(dir, 'agent.cjs')] };
    const weather = { tool_calls: [{ id: 'c1', name: 'get_weather', args: { city: 'Oslo' } }] };
    // The agent throws on the bridge's 400 for the second call and exits 1.
    const exhausted = await run(agent, [weather], { OPENAI_API_KEY: 'sk-x' });
    expect(exhausted.turn.error).toMatchObject({
      type: 'SCRIPT_EXHAUSTED',
      message: expect.stringContaining('the agent then failed: the external agent failed'),
    });
    const limited = await run({ ...agent, max_turns: 1 }, [weather, weather], { OPENAI_API_KEY: 'sk-x' });
    expect({ stop: limited.turn.stop_reason, error: limited.turn.error }).toEqual({ stop: 'max_turns', error: undefined });
  });

  it('calls an agent that exits on the refusal of a call still pending at its timeout_ms a timeout, not a failure', async () => {
    const dir = tempDir({ 'agent.cjs': OPENAI_AGENT });
    // The model takes a minute: at timeout_ms the bridge refuses the pending call, and the agent
    // exits on that error, maybe before it is stopped. Either way the limit is what ended it.
    const { turn } = await run({ command: [process.execPath, join(dir, 'agent.cjs')], timeout_ms: 1500 }, [{ text: 'late', delay_ms: 60_000 }], {
      OPENAI_API_KEY: 'sk-x',
    });
    expect(turn.error?.type).toBe('EXTERNAL_AGENT_TIMEOUT');
  });

  it('runs the agent through the bridge: its error result is an error execute_tool span, the answer is the output', async () => {
    const dir = tempDir({ 'agent.cjs': OPENAI_AGENT });
    const { turn, spans } = await run(
      { command: [process.execPath, join(dir, 'agent.cjs')], env: { SERVICE_TOKEN: 'tok-very-secret-123' } },
      [{ tool_calls: [{ id: 'c1', name: 'get_weather', args: { city: 'Atlantis' } }] }, { text: 'No weather for Atlantis.' }],
      { OPENAI_API_KEY: 'sk-real-key-should-not-pass' },
    );
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('No weather for Atlantis.');
    expect(turn.external).toEqual({ kind: 'command', trace_id: 'remote-1' });
    expect(turn.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const tool = spans.find((span) => span.name === 'execute_tool get_weather');
    expect(tool?.attributes).toMatchObject({ 'gen_ai.tool.call.id': 'c1', 'agentcheck.tool.is_error': true });
    const root = spans.find((span) => span.name === 'invoke_agent ext-bot');
    const resolved = JSON.parse(String(root?.attributes['agentcheck.resolved_config']));
    expect(resolved.external).toMatchObject({ kind: 'command', env: ['SERVICE_TOKEN'] });
    // Neither the env value nor the harness's own key reach the spans.
    const all = JSON.stringify(spans);
    expect(all).not.toContain('tok-very-secret-123');
    expect(all).not.toContain('sk-real-key-should-not-pass');
  });

  it('a crash errors the turn with the stderr tail', async () => {
    const dir = tempDir({ 'agent.cjs': 'console.error("boom: config missing"); process.exit(3);' });
    const { turn } = await run({ command: [process.execPath, join(dir, 'agent.cjs')] }, NO_MODEL_CALL);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.type).toBe('EXTERNAL_AGENT_FAILED');
    expect(turn.error?.message).toContain('exited with code 3');
    expect(turn.error?.message).toContain('boom: config missing');
  });

  it('its secrets are scrubbed from the stderr an error quotes and from its answer; plain values stay', async () => {
    // Prints its environment to stderr, as a careless agent does, and echoes a secret in its answer.
    const printer =
      'console.error(JSON.stringify(process.env)); process.stdout.write("token " + process.env.SERVICE_TOKEN); process.exit(Number(process.env.CODE));';
    const dir = tempDir({ 'agent.cjs': printer, 'hang.cjs': 'console.error(JSON.stringify(process.env)); setInterval(() => {}, 1000);' });
    const env = { SERVICE_TOKEN: 'tok-literal-secret-123', DB_PASSWORD: 'pw "quoted" secret', MODE: 'plain-mode-value' };
    const failed = await run({ command: [process.execPath, join(dir, 'agent.cjs')], env: { ...env, CODE: '1' } }, NO_MODEL_CALL);
    const hung = await run({ command: [process.execPath, join(dir, 'hang.cjs')], env, timeout_ms: 1500 }, NO_MODEL_CALL);
    const answered = await run({ command: [process.execPath, join(dir, 'agent.cjs')], env: { ...env, CODE: '0' } }, NO_MODEL_CALL);
    expect(failed.turn.error?.type).toBe('EXTERNAL_AGENT_FAILED');
    expect(hung.turn.error?.type).toBe('EXTERNAL_AGENT_TIMEOUT');
    expect(answered.turn.output).toBe('token [redacted]');
    for (const { turn, spans } of [failed, hung, answered]) {
      const all = JSON.stringify({ turn, spans });
      for (const secret of ['tok-literal-secret-123', 'pw "quoted" secret', 'pw \\"quoted\\" secret', 'agentcheck-model-bridge'])
        expect(all).not.toContain(secret);
    }
    for (const turn of [failed.turn, hung.turn]) {
      expect(turn.error?.message).toContain('"SERVICE_TOKEN":"[redacted]"');
      expect(turn.error?.message).toContain('"MODE":"plain-mode-value"');
    }
  });

  it('a hang is ended by timeout_ms with its whole process tree', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'child.pid');
    const agent = join(dir, 'hang.cjs');
    writeFileSync(
      agent,
      `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
console.error('waiting forever');
setInterval(() => {}, 1000);
`,
    );
    // Long enough for the agent to start, start its child and say so on a loaded machine: what the
    // timeout's message quotes and the child's pid file must be there by then.
    const { turn } = await run({ command: [process.execPath, agent], timeout_ms: 5000 }, NO_MODEL_CALL);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.type).toBe('EXTERNAL_AGENT_TIMEOUT');
    expect(turn.error?.message).toContain('waiting forever');
    // The group was signalled as the run ended; on a busy machine the child may take a moment to go.
    await waitUntilGone(Number(readFileSync(pidFile, 'utf8')));
  });

  it('an abort (the wall-clock cap of a run) ends the hanging agent with its process tree', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'child.pid');
    const agent = join(dir, 'hang.cjs');
    writeFileSync(
      agent,
      `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
setInterval(() => {}, 1000);
`,
    );
    const controller = new AbortController();
    const { tracer } = installTracing();
    const revision = revisionFromValue({ id: 'ext-bot', external: { command: [process.execPath, agent] } });
    const running = invoke(
      revision,
      { messages: [{ role: 'user', content: 'hi' }] },
      { model: new ScriptedModel(NO_MODEL_CALL), tracer, env: { PATH: process.env.PATH }, signal: controller.signal },
    );
    // Abort once the agent has started its child (no clock involved).
    await waitForPidFile(pidFile);
    controller.abort();
    const turn = await running;
    expect(turn.stop_reason).toBe('error');
    // The abort is the cause: RUN_ABORTED, not the agent it ended (docs/verdicts.md).
    expect(turn.error).toMatchObject({ type: 'RUN_ABORTED', message: expect.stringContaining('the run was aborted') });
    await waitUntilGone(Number(readFileSync(pidFile, 'utf8')));
  });

  it('awaits beforeExternalStop (the wait for late spans) while a child the agent left is alive; the child is ended after, on the root', async () => {
    // The detached child inherits the run's tag; it may be exporting the agent's spans.
    const dir = tempDir();
    const pidFile = join(dir, 'child.pid');
    const agent = join(dir, 'leaves-child.cjs');
    writeFileSync(
      agent,
      `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', detached: true });
child.unref();
require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
process.stdout.write('done');
`,
    );
    const seen: boolean[] = [];
    const { tracer, store } = installTracing();
    const revision = revisionFromValue({ id: 'ext-bot', external: { command: [process.execPath, agent] } });
    const turn = await invoke(
      revision,
      { messages: [{ role: 'user', content: 'hi' }] },
      {
        model: new ScriptedModel(NO_MODEL_CALL),
        tracer,
        env: { PATH: process.env.PATH },
        beforeExternalStop: async () => {
          seen.push(isRunning(Number(readFileSync(pidFile, 'utf8'))));
        },
      },
    );
    expect(turn.output).toBe('done');
    // Awaited once, the child still alive: before, the child was ended first and the hook never ran.
    expect(seen).toEqual([true]);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const root = store.take(turn.trace_id).find((span) => span.parent_id === null);
    expect(root?.attributes['agentcheck.processes.killed']).toEqual([expect.stringMatching(new RegExp(`^${pid} `))]);
    await waitUntilGone(pid);
  });

  it('a tool call never answered is an error span and named on the root', async () => {
    const dir = tempDir({ 'agent.cjs': OPENAI_AGENT });
    const { turn, spans } = await run({ command: [process.execPath, join(dir, 'agent.cjs')], env: { MODE: 'skip' } }, [
      { tool_calls: [{ id: 'c7', name: 'get_weather', args: { city: 'Oslo' } }] },
    ]);
    expect(turn.stop_reason).toBe('end_turn');
    const tool = spans.find((span) => span.name === 'execute_tool get_weather');
    expect(tool?.status).toBe('error');
    expect(tool?.attributes['error.type']).toBe('unanswered_tool_call');
    expect(spans.find((span) => span.name.startsWith('invoke_agent'))?.attributes['agentcheck.external.unanswered_tool_calls']).toEqual(['get_weather (c7)']);
  });
});
