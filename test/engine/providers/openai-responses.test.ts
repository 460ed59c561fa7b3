import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/config/errors.js';
import { invoke } from '../../../src/engine/invoke.js';
import type { Message } from '../../../src/engine/model/message.js';
import type { ModelRequest, ToolDefinition } from '../../../src/engine/model/model.js';
import type { HttpModelOptions } from '../../../src/engine/providers/http-model-options.js';
import { OpenAIResponsesModel } from '../../../src/engine/providers/openai-responses/openai-responses.js';
import { sentParameters } from '../../../src/engine/providers/parameter-specs.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { build } from '../../helpers/run-agent.js';

const KEY = 'sk-proj-TESTKEY-responses-123';
const URL = 'https://api.openai.com/v1/responses';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Answers each request with the next body (the last one repeats) and records the raw request text. */
function serve(...bodies: Record<string, unknown>[]): string[] {
  const seen: string[] = [];
  server.use(
    http.post(URL, async ({ request }) => {
      seen.push(await request.text());
      return HttpResponse.json(bodies[Math.min(seen.length - 1, bodies.length - 1)]);
    }),
  );
  return seen;
}

const model = (extra: Partial<HttpModelOptions> = {}) =>
  new OpenAIResponsesModel({ model: 'gpt-5-mini', env: { OPENAI_API_KEY: KEY }, maxRetries: 0, ...extra });
const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'You are a weather assistant.',
  messages: [{ role: 'user', content: 'What is the weather like in Paris today?' }],
  tools: [],
  parameters: {},
  ...extra,
});

const WEATHER: ToolDefinition = {
  name: 'get_weather',
  description: 'Get current temperature for a given location.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

/** A Response object in the shape of the API reference (fields the provider does not read included). */
function response(output: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
    object: 'response',
    created_at: 1741476542,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: 'You are a weather assistant.',
    max_output_tokens: null,
    model: 'gpt-5-mini-2025-08-07',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: 'medium', summary: null },
    store: true,
    temperature: 1.0,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1.0,
    truncation: 'disabled',
    usage: {
      input_tokens: 328,
      input_tokens_details: { cached_tokens: 256 },
      output_tokens: 148,
      output_tokens_details: { reasoning_tokens: 128 },
      total_tokens: 476,
    },
    user: null,
    metadata: {},
    ...extra,
  };
}

const textMessage = (text: string) => ({
  type: 'message',
  id: 'msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }],
});
const REASONING = { id: 'rs_6820f383d7c08191846711c5df8233bc0ac5ba57aafcbac7', type: 'reasoning', summary: [] };
const CALL = {
  type: 'function_call',
  id: 'fc_67ca09c6bedc8190a7abfec07b1a1332096610f474011cc0',
  call_id: 'call_unLAR8MvFNptuiZK6K6HCy5k',
  name: 'get_weather',
  arguments: '{"location":"Paris, France"}',
  status: 'completed',
};

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('OpenAIResponsesModel', () => {
  it('sends model, instructions, input, strict-free function tools and parameters; maps text, usage and id', async () => {
    const seen = serve(response([textMessage('It is 18°C and sunny in Paris.')]));
    const instance = model();
    const result = await instance.generate(
      request({ tools: [WEATHER], parameters: { temperature: 0.2, max_output_tokens: 500, reasoning: { effort: 'low' } } }),
    );

    expect(instance.provider).toBe('openai-responses');
    expect(JSON.parse(seen[0])).toEqual({
      model: 'gpt-5-mini',
      instructions: 'You are a weather assistant.',
      input: [{ role: 'user', content: 'What is the weather like in Paris today?' }],
      tools: [{ type: 'function', name: 'get_weather', description: WEATHER.description, parameters: WEATHER.parameters, strict: false }],
      temperature: 0.2,
      max_output_tokens: 500,
      reasoning: { effort: 'low' },
    });
    expect(result).toEqual({
      text: 'It is 18°C and sunny in Paris.',
      toolCalls: [],
      finishReason: { unified: 'stop', raw: 'completed' },
      usage: { input_tokens: 328, output_tokens: 148, cached_input_tokens: 256, reasoning_tokens: 128 },
      responseModel: 'gpt-5-mini-2025-08-07',
      responseId: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
    });
  });

  it('sends the transcript as messages, function_call and function_call_output items; omits empty instructions', async () => {
    const seen = serve(response([textMessage('Done.')]));
    const messages: Message[] = [
      { role: 'user', content: 'Weather in Paris and Bogotá?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { tool_call_id: 'call_1', tool_name: 'get_weather', input: { location: 'Paris, France' } },
          { tool_call_id: 'call_2', tool_name: 'get_weather', input: { location: 'Bogotá, Colombia' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', tool_name: 'get_weather', content: '{"temperature":18}', is_error: false },
      { role: 'tool', tool_call_id: 'call_2', tool_name: 'get_weather', content: 'service unavailable', is_error: true },
      { role: 'assistant', content: 'Paris is 18°C; Bogotá is unknown.' },
      { role: 'user', content: 'Thanks' },
    ];
    await model().generate(request({ system: '', messages }));
    const body = JSON.parse(seen[0]);
    expect(body).not.toHaveProperty('instructions');
    expect(body.input).toEqual([
      { role: 'user', content: 'Weather in Paris and Bogotá?' },
      { role: 'assistant', content: 'Checking both.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
      { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"location":"Bogotá, Colombia"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temperature":18}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'service unavailable' },
      { role: 'assistant', content: 'Paris is 18°C; Bogotá is unknown.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('maps function_call items to calls by call_id; arguments that are not JSON become an argsError', async () => {
    serve(response([CALL, { ...CALL, id: 'fc_2', call_id: 'call_2', arguments: '{"location": ' }]));
    const result = await model().generate(request({ tools: [WEATHER] }));
    expect(result.finishReason).toEqual({ unified: 'tool_calls', raw: 'completed' });
    expect(result.toolCalls[0]).toEqual({ id: 'call_unLAR8MvFNptuiZK6K6HCy5k', name: 'get_weather', args: { location: 'Paris, France' } });
    expect(result.toolCalls[1]).toMatchObject({ id: 'call_2', args: '{"location": ' });
    expect(result.toolCalls[1].argsError).toContain('not valid JSON');
    expect(result.providerContent).toBeUndefined();
  });

  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'content_filter'],
  ])('maps status incomplete (%s) to %s', async (reason, unified) => {
    serve(response([REASONING], { status: 'incomplete', incomplete_details: { reason } }));
    expect((await model().generate(request())).finishReason).toEqual({ unified, raw: reason });
  });

  it('maps a refusal content part to a refusal, keeping its text', async () => {
    const refused = { ...textMessage(''), content: [{ type: 'refusal', refusal: "I'm sorry, I cannot assist with that request." }] };
    serve(response([refused]));
    const result = await model().generate(request());
    expect(result.finishReason).toEqual({ unified: 'refusal', raw: 'completed' });
    expect(result.refusal).toBe("I'm sorry, I cannot assist with that request.");
    expect(result.text).toBe('');
  });

  it('fails on a failed or unfinished response, and on a body without output', async () => {
    serve(response([], { status: 'failed', error: { code: 'server_error', message: 'The model failed to generate a response.' } }));
    const failed = await failure(model().generate(request()));
    expect(failed.code).toBe('MODEL_RESPONSE_FAILED');
    expect(failed.message).toContain('the response is failed, not completed: server_error: The model failed to generate a response.');
    serve(response([], { status: 'queued' }));
    expect((await failure(model().generate(request()))).message).toContain('queued');
    serve({ id: 'resp_1', object: 'response' });
    expect((await failure(model().generate(request()))).code).toBe('MODEL_BAD_RESPONSE');
  });

  it('uses OPENAI_BASE_URL and needs OPENAI_API_KEY', async () => {
    const seen: string[] = [];
    server.use(
      http.post('https://gateway.test/openai/v1/responses', async ({ request: sent }) => {
        seen.push(sent.headers.get('authorization') ?? '');
        return HttpResponse.json(response([textMessage('ok')]));
      }),
    );
    await model({ env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'https://gateway.test/openai/v1/' } }).generate(request());
    expect(seen).toEqual([`Bearer ${KEY}`]);
    const missing = await failure(model({ env: {} }).generate(request()));
    expect(missing.code).toBe('MODEL_NO_API_KEY');
    expect(missing.message).toContain('OPENAI_API_KEY');
  });
});

describe('OpenAIResponsesModel: reasoning items in a tool loop', () => {
  const weather = { name: 'get_weather', description: WEATHER.description, parameters: WEATHER.parameters, returns: { temperature: 18 } };

  async function loop(parameters: Record<string, unknown>, first: unknown[]) {
    const seen = serve(response(first), response([textMessage('It is 18°C in Paris.')]));
    const { tracer, store } = installTracing();
    const revision = build({ tools: [weather], llm: { provider: 'openai-responses', model: 'gpt-5-mini', parameters } });
    const instance = model();
    const turn = await invoke(revision, { messages: [{ role: 'user', content: 'What is the weather like in Paris today?' }] }, { model: instance, tracer });
    return { turn, seen, spans: store.take(turn.trace_id) };
  }

  it('sends the reasoning item and the call that follows it back unchanged, ids included', async () => {
    const { turn, seen, spans } = await loop({}, [REASONING, CALL]);
    expect(turn.stop_reason).toBe('end_turn');
    expect(turn.output).toBe('It is 18°C in Paris.');
    // Byte for byte: the output items, then the call's result.
    const callOutput = { type: 'function_call_output', call_id: CALL.call_id, output: '{"temperature":18}' };
    expect(seen[1]).toContain(
      `"input":[{"role":"user","content":"What is the weather like in Paris today?"},${JSON.stringify(REASONING)},${JSON.stringify(CALL)},${JSON.stringify(callOutput)}]`,
    );
    expect(turn.usage).toEqual({ input_tokens: 656, output_tokens: 296, cached_input_tokens: 512, reasoning_tokens: 256 });
    const chats = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats.map((chat) => chat.attributes['gen_ai.response.id'])).toEqual([response([]).id, response([]).id]);
    // The GenAI conventions name the vendor; the resolved config keeps the registry name.
    expect(chats.map((chat) => chat.attributes['gen_ai.provider.name'])).toEqual(['openai', 'openai']);
    const root = spans.find((span) => span.parent_id === null);
    expect(root?.attributes['gen_ai.provider.name']).toBe('openai');
    expect(JSON.parse(String(root?.attributes['agentcheck.resolved_config'])).provider).toBe('openai-responses');
  });

  it('with store: false asks for encrypted reasoning and sends items back without ids', async () => {
    const encrypted = {
      ...REASONING,
      encrypted_content:
        'gAAAAABoISQ24OyVRYbkYfukdKbWc7xVPEWjVcGMUqjJr5UtHxcDemP7NwC_ZzqZsZFpJ-e0B56s1SiAqXoa0kQNvnNbJwoiDJVnNIwOWbSGOh3Yn6-dCsd8XE3Rm1tWNXL5==',
    };
    const { turn, seen } = await loop({ store: false }, [encrypted, CALL]);
    expect(turn.stop_reason).toBe('end_turn');
    const [first, second] = seen.map((text) => JSON.parse(text));
    expect(first.include).toEqual(['reasoning.encrypted_content']);
    expect(first.store).toBe(false);
    expect(sentParameters('openai-responses', { store: false, include: ['message.output_text.logprobs'] }).include).toEqual([
      'message.output_text.logprobs',
      'reasoning.encrypted_content',
    ]);
    const { id: _reasoningId, ...reasoningBack } = encrypted;
    const { id: _callId, ...callBack } = CALL;
    expect(second.input.slice(1, 3)).toEqual([reasoningBack, callBack]);
  });
});
