import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyDelta } from '../../../src/engine/revision/delta.js';
import { loadAgentBuild, revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { ConfigErrors } from '../../../src/config/errors.js';
import { loadScenarioFile } from '../../../src/runner/scenario/load-scenario-file.js';
import { runScenario } from '../../../src/runner/scenario/run-scenario.js';
import { configErrorOf } from '../../helpers/config-error.js';
import { tempDir } from '../../helpers/temp-dir.js';

const bodies: Array<Record<string, unknown>> = [];
const server = setupServer(
  http.post('https://llm.test/v1/chat/completions', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({
      model: 'm',
      choices: [{ message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
  }),
  http.post('https://llm.test/v1/messages', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ model: 'm', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  bodies.length = 0;
});
afterAll(() => server.close());

const env = { OPENAI_API_KEY: 'sk-test-0000000000', ANTHROPIC_API_KEY: 'sk-ant-test-000000' };

function agentYaml(provider: string, parameters: string): string {
  const baseUrl = provider === 'openai' ? 'https://llm.test/v1' : 'https://llm.test';
  return `id: bot\nagent:\n  name: Bot\n  llm:\n    provider: ${provider}\n    model: base-model\n    base_url: ${baseUrl}\n    parameters: ${parameters}\n`;
}

function loadAgent(provider: string, parameters: string) {
  const dir = tempDir({ 'agent.yaml': agentYaml(provider, parameters) });
  return () => loadAgentBuild(join(dir, 'agent.yaml'));
}

function scenarioDir(agent: string, model: string) {
  const scenario = `name: s\nagent: agent.yaml\ninputs: {messages: [{role: user, content: hi}]}\nmodel: ${model}\n`;
  const dir = tempDir({ 'agent.yaml': agent, 'a.scenario.yaml': scenario });
  return { dir, load: () => loadScenarioFile({ file: join(dir, 'a.scenario.yaml'), root: dir }, { agents: new Map() }) };
}

describe('llm.parameters are validated per provider at load', () => {
  it('refuses an unknown key with a suggestion, located at the key', () => {
    const error = configErrorOf(loadAgent('openai', '{temprature: 0.2}'));
    expect(error.path).toBe('agent.llm.parameters.temprature');
    expect(error.line).toBe(8);
    expect(error.message).toContain('unknown openai parameter "temprature"; did you mean "temperature"?');
    expect(error.message).toContain('parameters.extra');
  });

  it('suggests the one key a shortened name starts, in a nested parameter too', () => {
    const nested = configErrorOf(loadAgent('anthropic', '{metadata: {user: x}}'));
    expect(nested.path).toBe('agent.llm.parameters.metadata.user');
    expect(nested.expected).toBe('unknown key "user" (did you mean "user_id"?); expected one of: user_id');
    expect(configErrorOf(loadAgent('openai', '{temp: 0.2}')).message).toContain('unknown openai parameter "temp"; did you mean "temperature"?');
    // max_tokens and max_completion_tokens both start with it: no guess.
    expect(configErrorOf(loadAgent('openai', '{max: 5}')).message).toMatch(/unknown openai parameter "max"; expected one of/);
  });

  it('refuses values out of type or range', () => {
    expect(configErrorOf(loadAgent('openai', '{max_tokens: -5}')).message).toMatch(/agent\.llm\.parameters\.max_tokens: expected a number >= 1, got number -5/);
    expect(configErrorOf(loadAgent('anthropic', '{temperature: 1.5}')).message).toMatch(/parameters\.temperature: expected a number <= 1/);
    expect(configErrorOf(loadAgent('openai', '{temperature: "0"}')).message).toMatch(/parameters\.temperature: expected number, got string "0"/);
    expect(configErrorOf(loadAgent('openai', '{stop: [a, b, c, d, e]}')).message).toMatch(/parameters\.stop: expected at most 4/);
    expect(configErrorOf(loadAgent('openai', '{seed: 1.5}')).message).toMatch(/parameters\.seed: expected integer/);
  });

  it("knows each provider's own names", () => {
    expect(configErrorOf(loadAgent('anthropic', '{stop: [x]}')).message).toContain('anthropic calls it "stop_sequences"');
    expect(configErrorOf(loadAgent('openai', '{top_k: 5}')).message).toContain('unknown openai parameter "top_k"');
    expect(loadAgent('anthropic', '{top_k: 5, stop_sequences: [x], max_tokens: 10}')).not.toThrow();
    expect(configErrorOf(loadAgent('openai', '{max_tokens: 5, max_completion_tokens: 5}')).message).toContain('cannot both be set');
    expect(configErrorOf(loadAgent('openai-responses', '{max_tokens: 5}')).message).toContain('openai-responses calls it "max_output_tokens"');
    expect(configErrorOf(loadAgent('openai-responses', '{reasoning_effort: low}')).message).toContain('openai-responses calls it "reasoning.effort"');
    expect(configErrorOf(loadAgent('openai-responses', '{reasoning: {effort: extreme}}')).message).toMatch(/parameters\.reasoning\.effort: expected one of/);
    expect(configErrorOf(loadAgent('openai-responses', '{extra: {input: []}}')).message).toContain('"input" is set by agentcheck itself');
    expect(configErrorOf(loadAgent('openai-responses', '{extra: {previous_response_id: resp_1}}')).message).toContain(
      '"previous_response_id" is set by agentcheck itself',
    );
    expect(
      loadAgent(
        'openai-responses',
        '{max_output_tokens: 500, reasoning: {effort: low, summary: auto}, text: {verbosity: low}, store: false, truncation: auto}',
      ),
    ).not.toThrow();
  });

  it('extra is the one pass-through place, and cannot replace what agentcheck sends or hide a known key', () => {
    expect(configErrorOf(loadAgent('openai', '{extra: {model: x}}')).message).toContain('"model" is set by agentcheck itself');
    expect(configErrorOf(loadAgent('openai', '{extra: {temperature: 3}}')).message).toContain('"temperature" is a known openai parameter');
    expect(configErrorOf(loadAgent('openai', '{extra: 5}')).message).toMatch(/parameters\.extra: expected object/);
  });

  it('validates the result of a delta too', () => {
    const revision = loadAgent('openai', '{temperature: 0}')();
    const error = configErrorOf(() => applyDelta(revision, { set: { agent: { llm: { parameters: { max_tokens: 0 } } } } }));
    expect(error.message).toMatch(/after applying the delta: expected a number >= 1/);
  });
});

describe('what the provider is sent', () => {
  it('sends known parameters and extra as given; the resolved config shows them', async () => {
    const { dir, load } = scenarioDir(agentYaml('openai', '{temperature: 0.2, seed: 7, extra: {logit_bias_mode: strict, options: {num_ctx: 4096}}}'), '{}');
    expect(dir).toBeTruthy();
    const [scenario] = load();
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0, env });
    expect(row.error).toBeNull();
    const { messages: _m, ...body } = bodies[0];
    expect(body).toEqual({ model: 'base-model', temperature: 0.2, seed: 7, logit_bias_mode: 'strict', options: { num_ctx: 4096 } });
    expect(row.test_run?.resolved?.parameters).toEqual({ temperature: 0.2, seed: 7, extra: { logit_bias_mode: 'strict', options: { num_ctx: 4096 } } });
  });

  it("a scenario model override replaces the agent's parameters: never both max_tokens and max_completion_tokens", async () => {
    const { load } = scenarioDir(agentYaml('openai', '{temperature: 0, max_tokens: 1024}'), '{model: o3-mini, parameters: {max_completion_tokens: 2000}}');
    const [scenario] = load();
    const row = await runScenario(scenario, { variant: 'base', revision: scenario.revision, repeat: 0, env });
    expect(row.error).toBeNull();
    const { messages: _m, ...body } = bodies[0];
    expect(body).toEqual({ model: 'o3-mini', max_completion_tokens: 2000 });
    expect(row.test_run?.resolved).toMatchObject({ model: 'o3-mini', parameters: { max_completion_tokens: 2000 } });
  });

  it("an override without parameters keeps the agent's; one that switches provider keeps none of them", async () => {
    const keep = scenarioDir(agentYaml('openai', '{temperature: 0, max_tokens: 64}'), '{model: other}').load()[0];
    expect(keep.revision.build.agent?.llm).toMatchObject({ provider: 'openai', model: 'other', parameters: { temperature: 0, max_tokens: 64 } });
    const [switched] = scenarioDir(
      agentYaml('openai', '{temperature: 0, stop: [x]}'),
      '{provider: anthropic, model: claude-x, base_url: "https://llm.test"}',
    ).load();
    expect(switched.revision.build.agent?.llm).toEqual({ provider: 'anthropic', model: 'claude-x', base_url: 'https://llm.test' });
    const row = await runScenario(switched, { variant: 'base', revision: switched.revision, repeat: 0, env });
    expect(row.error).toBeNull();
    // The Messages API requires max_tokens: the default is sent, and the resolved config says so.
    expect(bodies[0]).toMatchObject({ model: 'claude-x', max_tokens: 1024 });
    expect(bodies[0]).not.toHaveProperty('stop');
    expect(row.test_run?.resolved?.parameters).toEqual({ max_tokens: 1024 });
  });

  it("a scenario override's bad parameters are located in the scenario file", () => {
    const error = configErrorOf(scenarioDir(agentYaml('openai', '{temperature: 0}'), '{parameters: {max_tokens: -5}}').load);
    expect(error.file).toMatch(/a\.scenario\.yaml$/);
    expect(error.path).toBe('model.parameters.max_tokens');
    expect(error.message).toContain('expected a number >= 1');
    expect(configErrorOf(scenarioDir(agentYaml('openai', '{}'), '{provider: anthropic}').load).message).toContain('name its model too');
  });

  it("suite model parameters are checked against the provider they reach, and the error says they are the suite's", () => {
    const { dir } = scenarioDir(agentYaml('anthropic', '{max_tokens: 10}'), '{}');
    const error = configErrorOf(() =>
      loadScenarioFile({ file: join(dir, 'a.scenario.yaml'), root: dir }, { agents: new Map(), suiteModel: { parameters: { stop: ['x'] } } }),
    );
    expect(error.message).toContain('the suite config\'s model.parameters.stop: unknown anthropic parameter "stop"; anthropic calls it "stop_sequences"');
  });
});

describe('every parameter problem in one pass', () => {
  it('reports an unknown key, two bad values, a conflicting pair and a known key in extra together', () => {
    let caught: unknown;
    try {
      revisionFromValue({
        id: 'p',
        agent: {
          name: 'P',
          llm: {
            provider: 'openai',
            model: 'gpt-4.1-mini',
            parameters: { temprature: 0.2, max_tokens: -5, max_completion_tokens: 10, top_p: 3, extra: { temperature: 1 } },
          },
        },
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigErrors);
    const messages = (caught as ConfigErrors).errors.map((error) => error.message);
    expect(messages).toHaveLength(5);
    const text = messages.join('\n');
    for (const part of ['"temprature"', 'max_tokens', 'top_p', 'cannot both be set', 'extra.temperature']) expect(text).toContain(part);
  });

  it("a bad base_url, timeout_ms or max_retries does not hide the parameters' problems", () => {
    const dir = tempDir({
      'agent.yaml':
        'id: pa\nagent:\n  name: P\n  llm:\n    provider: anthropic\n    model: claude\n    base_url: "ftp://x"\n    timeout_ms: 0\n    max_retries: -1\n' +
        '    parameters:\n      temperature: 1.5\n      stop: ["x"]\n      top_k: 0\n',
    });
    const error = configErrorOf(() => loadAgentBuild(join(dir, 'agent.yaml'))) as ConfigErrors;
    expect(error.errors.map((e) => `${e.line} ${e.path}`)).toEqual([
      '7 agent.llm.base_url',
      '8 agent.llm.timeout_ms',
      '9 agent.llm.max_retries',
      '11 agent.llm.parameters.temperature',
      '12 agent.llm.parameters.stop',
      '13 agent.llm.parameters.top_k',
    ]);
  });

  it("a scenario override's bad timeout_ms does not hide its parameters' problems; a bad provider does", () => {
    const both = configErrorOf(scenarioDir(agentYaml('openai', '{}'), '{provider: openai, model: m, timeout_ms: 0, parameters: {temprature: 1}}').load);
    expect((both as ConfigErrors).errors.map((e) => `${e.path}: ${e.expected.slice(0, 42)}`)).toEqual([
      'model.timeout_ms: expected a number >= 1, got number 0',
      'model.parameters.temprature: unknown openai parameter "temprature"; did',
    ]);
    // Against which provider the parameters would be checked is unknown: the provider alone.
    const provider = configErrorOf(scenarioDir(agentYaml('openai', '{}'), '{provider: opnai, model: m, parameters: {temprature: 1}}').load);
    expect(provider.path).toBe('model.provider');
    expect(provider).not.toBeInstanceOf(ConfigErrors);
  });
});
