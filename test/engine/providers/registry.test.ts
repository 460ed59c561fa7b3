import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { AnthropicMessagesModel } from '../../../src/engine/providers/anthropic.js';
import { createModel } from '../../../src/engine/providers/index.js';
import { OpenAIChatModel } from '../../../src/engine/providers/openai.js';
import { OpenAIResponsesModel } from '../../../src/engine/providers/openai-responses/openai-responses.js';
import { credentialEnvNames, PROVIDER_NAMES, PROVIDERS, providerBaseUrl, providerCredential, providerEntry } from '../../../src/engine/providers/registry.js';
import { ScriptedModel } from '../../../src/engine/providers/scripted.js';
import { revisionFromValue } from '../../../src/engine/revision/load-build.js';
import { llmProperties } from '../../../src/engine/revision/llm-schema.js';
import { matchKey } from '../../../src/runner/cassettes/match-key.js';
import { executeTestRun } from '../../../src/runner/test-run.js';

describe('the provider registry', () => {
  it('names each entry by its key, and the build schema accepts exactly the registered names', () => {
    for (const [name, entry] of Object.entries(PROVIDERS)) expect(entry.name).toBe(name);
    expect(PROVIDER_NAMES).toEqual(['scripted', 'openai', 'anthropic', 'openai-responses']);
    expect(llmProperties.provider.enum).toEqual(PROVIDER_NAMES);
    expect(() => revisionFromValue({ id: 'x', agent: { name: 'x', llm: { provider: 'gemini', model: 'g' } } })).toThrow(
      'expected one of "scripted" | "openai" | "anthropic" | "openai-responses", got string "gemini"',
    );
  });

  it("holds each provider's env var names and default base URL", () => {
    expect(PROVIDERS.openai.endpoint).toEqual({
      provider: 'openai',
      baseUrlEnv: 'OPENAI_BASE_URL',
      defaultBaseUrl: 'https://api.openai.com/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      path: '/chat/completions',
    });
    expect(PROVIDERS.anthropic.endpoint).toEqual({
      provider: 'anthropic',
      baseUrlEnv: 'ANTHROPIC_BASE_URL',
      defaultBaseUrl: 'https://api.anthropic.com',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      path: '/v1/messages',
    });
    expect(PROVIDERS['openai-responses'].endpoint).toEqual({
      provider: 'openai-responses',
      baseUrlEnv: 'OPENAI_BASE_URL',
      defaultBaseUrl: 'https://api.openai.com/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      path: '/responses',
    });
    expect('endpoint' in PROVIDERS.scripted).toBe(false);
    expect(credentialEnvNames()).toEqual(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY']);
  });

  it('looks credentials up per provider; an empty variable is no key', () => {
    const env = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' };
    expect(providerCredential('openai', env)).toBe('sk-o');
    expect(providerCredential('anthropic', env)).toBe('sk-a');
    expect(providerCredential('scripted', env)).toBeUndefined();
    expect(providerCredential('anthropic', { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: ' ' })).toBeUndefined();
  });

  it("resolves the base URL: the build, then the provider's own env var, then its default", () => {
    const env = { OPENAI_BASE_URL: 'https://proxy.test/v1', ANTHROPIC_BASE_URL: 'https://claude-proxy.test' };
    expect(providerBaseUrl({ provider: 'openai', base_url: 'https://mine.test/v1' }, env)).toBe('https://mine.test/v1');
    expect(providerBaseUrl({ provider: 'openai' }, env)).toBe('https://proxy.test/v1');
    expect(providerBaseUrl({ provider: 'anthropic' }, env)).toBe('https://claude-proxy.test');
    expect(providerBaseUrl({ provider: 'anthropic' }, {})).toBe('https://api.anthropic.com');
    expect(providerBaseUrl({ provider: 'openai' }, { OPENAI_BASE_URL: '' })).toBe('https://api.openai.com/v1');
    expect(providerBaseUrl({ provider: 'scripted' }, env)).toBeNull();
  });

  it("refuses an unknown provider with a ConfigError naming the known ones, never another provider's URL", () => {
    expect(() => providerEntry('gemini')).toThrow(ConfigError);
    expect(() => providerEntry('gemini')).toThrow(
      'agent.llm.provider: unknown provider "gemini"; expected one of: scripted, openai, anthropic, openai-responses',
    );
    expect(() => providerBaseUrl({ provider: 'gemini' as never }, {})).toThrow(expect.objectContaining({ code: 'PROVIDER_UNKNOWN' }));
    expect(() => providerEntry('toString')).toThrow(/unknown provider "toString"/);
  });

  it("creates each provider's model from its entry", () => {
    expect(createModel({ provider: 'openai', model: 'm' })).toBeInstanceOf(OpenAIChatModel);
    expect(createModel({ provider: 'anthropic', model: 'm' })).toBeInstanceOf(AnthropicMessagesModel);
    expect(createModel({ provider: 'openai-responses', model: 'm' })).toBeInstanceOf(OpenAIResponsesModel);
    expect(createModel({ provider: 'scripted', model: 'm' }, { script: [{ text: 'hi' }] })).toBeInstanceOf(ScriptedModel);
    expect(() => createModel({ provider: 'gemini' as never, model: 'm' })).toThrow(/unknown provider "gemini"/);
  });

  it('gives each provider its own tool shape for cassette match keys, and only its own', () => {
    const openaiTool = { type: 'function', function: { name: 'lookup', description: 'Look up.', parameters: { type: 'object' } } };
    const anthropicTool = { name: 'lookup', description: 'Look up.', input_schema: { type: 'object' } };
    const neutral = { name: 'lookup', description: 'Look up.', parameters: { type: 'object' } };
    expect(PROVIDERS.openai.matchTool?.(openaiTool)).toEqual(neutral);
    expect(PROVIDERS.openai.matchTool?.(anthropicTool)).toBeUndefined();
    expect(PROVIDERS.anthropic.matchTool?.(anthropicTool)).toEqual(neutral);
    expect(PROVIDERS.anthropic.matchTool?.(openaiTool)).toBeUndefined();
    const responsesTool = { type: 'function', name: 'lookup', description: 'Look up.', parameters: { type: 'object' }, strict: false };
    expect(PROVIDERS['openai-responses'].matchTool?.(responsesTool)).toEqual(neutral);
    expect(PROVIDERS['openai-responses'].matchTool?.(openaiTool)).toBeUndefined();
    expect(PROVIDERS['openai-responses'].matchTool?.(anthropicTool)).toBeUndefined();
    const key = (tool: object) => matchKey({ method: 'POST', url: 'https://x.test', headers: {}, body: { model: 'm', messages: [], tools: [tool] } }).tools;
    expect(key(openaiTool)).toEqual(key(anthropicTool));
  });

  it("gives a Responses body's instructions and input the system and messages places of a match key", () => {
    const input = [
      { role: 'user', content: 'hi' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
    ];
    const body = { model: 'gpt-5-mini', instructions: 'Be brief.', input, tools: [], temperature: 0 };
    expect(matchKey({ method: 'post', url: 'https://api.openai.com/v1/responses', headers: {}, body })).toEqual({
      method: 'POST',
      url: 'https://api.openai.com/v1/responses',
      model: 'gpt-5-mini',
      system: 'Be brief.',
      messages: input,
      tools: [],
      parameters: { temperature: 0 },
    });
    // A Chat Completions body keeps its own names, even with a field called input.
    expect(matchKey({ method: 'POST', url: 'https://x.test', headers: {}, body: { model: 'm', messages: [], input: 'x' } }).parameters).toEqual({ input: 'x' });
  });
});

describe('a run whose build names an unregistered provider', () => {
  it("is a clear error, not a run against Anthropic's URL", async () => {
    // Requests and files are validated where they are loaded; the suite hands executeTestRun its
    // revisions as they are, so this is how a bad provider could reach the runner.
    const revision = { build: { id: 'x', agent: { name: 'x', llm: { provider: 'gemini', model: 'g' } } }, hash: 'h', deltaHash: null } as never;
    await expect(
      executeTestRun({ agent: 'unused.yaml', inputs: { messages: [{ role: 'user', content: 'hi' }] }, mocks: { http: [] } }, revision),
    ).rejects.toThrow('agent.llm.provider: unknown provider "gemini"; expected one of: scripted, openai, anthropic, openai-responses');
  });
});
