import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../src/engine/invoke.js';
import { AnthropicMessagesModel } from '../../src/engine/providers/anthropic.js';
import { OpenAIChatModel } from '../../src/engine/providers/openai.js';
import { revisionFromValue } from '../../src/engine/revision/load-build.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { installTracing } from '../../src/spans/tracing.js';
import { configFixerBuild } from '../engine/flow/config-fixer.js';
import { build, runScripted } from '../helpers/run-agent.js';

// The attribute names the GenAI semantic conventions define, read from the registry's own package.
const REGISTERED = new Set(
  Object.entries(semconv)
    .filter(([name, value]) => name.startsWith('ATTR_GEN_AI_') && typeof value === 'string')
    .map(([, value]) => value as string),
);

function genAiKeys(spans: SpanRecord[]): string[] {
  return [...new Set(spans.flatMap((span) => Object.keys(span.attributes)).filter((key) => key.startsWith('gen_ai.')))].sort();
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('GenAI semantic conventions', () => {
  it('emits only registered gen_ai.* attributes, with the required ones on each span kind', async () => {
    const revision = build({ tools: [{ name: 'lookup', description: 'Look up.', parameters: { type: 'object' }, returns: { ok: true } }] });
    const { spans } = await runScripted(revision, [{ tool_calls: [{ name: 'lookup', args: {} }] }, { text: 'done' }]);
    const unknown = genAiKeys(spans).filter((key) => !REGISTERED.has(key));
    expect(unknown).toEqual([]);

    const root = spans.find((span) => span.parent_id === null)!;
    expect(root.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.provider.name': 'scripted', 'gen_ai.agent.name': 'Test agent' });
    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.kind).toBe('client');
      expect(chat.attributes['gen_ai.response.id']).toMatch(/^scripted-\d+$/);
      expect(chat.attributes).toHaveProperty('gen_ai.provider.name', 'scripted');
      expect(chat.attributes).toHaveProperty('gen_ai.request.model');
    }
    const tool = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool')!;
    expect(tool.attributes).toMatchObject({ 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': expect.any(String) });
  });

  it('names the operation and the workflow on invoke_workflow spans', async () => {
    const { spans } = await runScripted(revisionFromValue(configFixerBuild()), [{ text: 'done' }], { context: { config_path: 'missing.yaml' } });
    const flow = spans.find((span) => span.name.startsWith('invoke_workflow '))!;
    expect(flow.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'fix-config' });
    expect(genAiKeys(spans).filter((key) => !REGISTERED.has(key))).toEqual([]);
  });
});

describe('usage details and response ids from providers', () => {
  it('reads cached and reasoning tokens and the id from a Chat Completions body', async () => {
    // Shape as documented for the Chat Completions API (usage.*_details).
    server.use(
      http.post('https://api.openai.com/v1/chat/completions', () =>
        HttpResponse.json({
          id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
          object: 'chat.completion',
          model: 'o4-mini-2025-04-16',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hi', refusal: null }, finish_reason: 'stop' }],
          usage: {
            prompt_tokens: 1117,
            completion_tokens: 946,
            total_tokens: 2063,
            prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
            completion_tokens_details: { reasoning_tokens: 704, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
          },
        }),
      ),
    );
    const model = new OpenAIChatModel({ model: 'o4-mini', env: { OPENAI_API_KEY: 'sk-test' } });
    const response = await model.generate({ system: '', messages: [{ role: 'user', content: 'hi' }], tools: [], parameters: {} });
    expect(response.usage).toEqual({ input_tokens: 1117, output_tokens: 946, cached_input_tokens: 1024, reasoning_tokens: 704 });
    expect(response.responseId).toBe('chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG');
  });

  it('reads cache reads and the id from a Messages body; absent details stay absent', async () => {
    server.use(
      http.post('https://api.anthropic.com/v1/messages', () =>
        HttpResponse.json({
          id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'Hi' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 2048, output_tokens: 6 },
        }),
      ),
    );
    const model = new AnthropicMessagesModel({ model: 'claude-sonnet-4-5', env: { ANTHROPIC_API_KEY: 'sk-ant-test' } });
    const response = await model.generate({ system: '', messages: [{ role: 'user', content: 'hi' }], tools: [], parameters: { max_tokens: 64 } });
    expect(response.usage).toEqual({ input_tokens: 2060, output_tokens: 6, cached_input_tokens: 2048 });
    expect(response.responseId).toBe('msg_013Zva2CMHLNnXjNJJKqJ2EF');
    expect(response.usage).not.toHaveProperty('reasoning_tokens');
  });

  it('records the details on chat spans and sums them on the root and in the turn', async () => {
    let call = 0;
    server.use(
      http.post('https://api.openai.com/v1/chat/completions', () => {
        call++;
        const message =
          call === 1
            ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] }
            : { role: 'assistant', content: 'done' };
        return HttpResponse.json({
          id: `chatcmpl-${call}`,
          model: 'o4-mini',
          choices: [{ index: 0, message, finish_reason: call === 1 ? 'tool_calls' : 'stop' }],
          usage: {
            prompt_tokens: 100,
            completion_tokens: 50,
            prompt_tokens_details: { cached_tokens: 60 },
            completion_tokens_details: { reasoning_tokens: 30 },
          },
        });
      }),
    );
    const { tracer, store } = installTracing();
    const revision = build({ tools: [{ name: 'lookup', description: 'Look up.', parameters: { type: 'object' }, returns: { ok: true } }] });
    const model = new OpenAIChatModel({ model: 'o4-mini', env: { OPENAI_API_KEY: 'sk-test' } });
    const turn = await invoke(revision, { messages: [{ role: 'user', content: 'hi' }] }, { model, tracer });
    const spans = store.take(turn.trace_id);
    expect(turn.usage).toEqual({ input_tokens: 200, output_tokens: 100, cached_input_tokens: 120, reasoning_tokens: 60 });
    const root = spans.find((span) => span.parent_id === null)!;
    expect(root.attributes).toMatchObject({
      'gen_ai.usage.cache_read.input_tokens': 120,
      'gen_ai.usage.reasoning.output_tokens': 60,
      'gen_ai.provider.name': 'openai',
    });
    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats.map((chat) => chat.attributes['gen_ai.response.id'])).toEqual(['chatcmpl-1', 'chatcmpl-2']);
    expect(chats.map((chat) => chat.attributes['gen_ai.usage.cache_read.input_tokens'])).toEqual([60, 60]);
    expect(genAiKeys(spans).filter((key) => !REGISTERED.has(key))).toEqual([]);
  });
});
