import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../../src/engine/invoke.js';
import { AnthropicMessagesModel } from '../../../src/engine/providers/anthropic.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { build } from '../../helpers/run-agent.js';

const URL = 'https://api.anthropic.com/v1/messages';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// Blocks as the extended-thinking documentation shows them (thinking with its signature,
// redacted_thinking with its encrypted data, then text and tool_use).
const THINKING = {
  type: 'thinking',
  thinking: 'The user wants to know the current weather in Paris. I have access to a function `get_weather` that takes a location.',
  signature: 'BDaL4VrbR2Oj0hO4XpJxT28J5TILnCrrUXoKiiNBZW9P+nr8XSj1zuZzAl4egiCCpQNvfyUuFFJP5CncdYZEQPPmLxYsNrcs==',
};
const REDACTED = {
  type: 'redacted_thinking',
  data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB8URj2pLmN3kLa3==',
};
const FIRST_CONTENT = [
  THINKING,
  REDACTED,
  { type: 'text', text: 'I can help you get the current weather information for Paris. Let me check that for you' },
  { type: 'tool_use', id: 'toolu_01CswdEQBMshySk6Y9DFKrfq', name: 'get_weather', input: { location: 'Paris' } },
];
const USAGE = { input_tokens: 412, output_tokens: 188, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function message(id: string, content: unknown[], stopReason: string) {
  return { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, stop_reason: stopReason, stop_sequence: null, usage: USAGE };
}

const weather = {
  name: 'get_weather',
  description: 'Get the current weather in a given location.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  returns: { temperature: 88, unit: 'F' },
};

describe('Anthropic extended thinking with tools', () => {
  it('sends thinking and redacted_thinking blocks back unchanged, before tool_use, and keeps them out of the output', async () => {
    const bodies: string[] = [];
    server.use(
      http.post(URL, async ({ request }) => {
        bodies.push(await request.text());
        return bodies.length === 1
          ? HttpResponse.json(message('msg_01', FIRST_CONTENT, 'tool_use'))
          : HttpResponse.json(message('msg_02', [{ type: 'text', text: 'It is 88°F in Paris.' }], 'end_turn'));
      }),
    );
    const { tracer, store } = installTracing();
    const revision = build({
      tools: [weather],
      llm: { provider: 'anthropic', model: 'claude-sonnet-4-5', parameters: { max_tokens: 16000, thinking: { type: 'enabled', budget_tokens: 10000 } } },
    });
    const model = new AnthropicMessagesModel({ model: 'claude-sonnet-4-5', env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-000000' } });
    const turn = await invoke(revision, { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] }, { model, tracer });
    store.take(turn.trace_id);

    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('It is 88°F in Paris.');
    expect(bodies).toHaveLength(2);
    // Byte for byte: the assistant turn of the second request is the first response's content.
    expect(bodies[1]).toContain(`{"role":"assistant","content":${JSON.stringify(FIRST_CONTENT)}}`);
    expect(JSON.parse(bodies[1]).thinking).toEqual({ type: 'enabled', budget_tokens: 10000 });
    const assistant = turn.messages[1];
    expect(assistant).toMatchObject({ role: 'assistant', content: 'I can help you get the current weather information for Paris. Let me check that for you' });
    expect(assistant.role === 'assistant' && assistant.provider_content).toEqual({ provider: 'anthropic', items: FIRST_CONTENT });
    expect(turn.output).not.toContain('get_weather');
  });

  it("does not send another provider's content, and a thinking-only answer has no output text", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(URL, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(message('msg_03', [THINKING], 'end_turn'));
      }),
    );
    const model = new AnthropicMessagesModel({ model: 'claude-sonnet-4-5', env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-000000' } });
    const foreign = { provider: 'openai-responses', items: [{ type: 'reasoning', id: 'rs_1', summary: [] }] };
    const response = await model.generate({
      system: '',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello.', provider_content: foreign },
        { role: 'user', content: 'again' },
      ],
      tools: [],
      parameters: {},
    });
    expect((bodies[0] as { messages: unknown[] }).messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] });
    expect(response.text).toBe('');
    expect(response.providerContent).toEqual({ provider: 'anthropic', items: [THINKING] });
  });

  it('keeps interleaved thinking where it was, and keeps no copy of a turn without thinking', async () => {
    // Interleaved thinking: a thinking block between two tool_use blocks of one turn.
    const interleaved = [
      THINKING,
      FIRST_CONTENT[3],
      { ...THINKING, thinking: 'Now the forecast too.' },
      { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { location: 'Lyon' } },
    ];
    server.use(http.post(URL, () => HttpResponse.json(message('msg_04', interleaved, 'tool_use'))));
    const model = new AnthropicMessagesModel({ model: 'claude-sonnet-4-5', env: { ANTHROPIC_API_KEY: 'sk-ant-test-key-000000' } });
    const request = { system: '', messages: [{ role: 'user' as const, content: 'hi' }], tools: [], parameters: {} };
    expect((await model.generate(request)).providerContent?.items).toEqual(interleaved);
    server.use(http.post(URL, () => HttpResponse.json(message('msg_05', [FIRST_CONTENT[2]], 'end_turn'))));
    expect((await model.generate(request)).providerContent).toBeUndefined();
  });
});
