import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/config/errors.js';
import type { Message } from '../../../src/engine/model/message.js';
import type { ModelRequest, ToolDefinition } from '../../../src/engine/model/model.js';
import type { HttpModelOptions } from '../../../src/engine/providers/http-model-options.js';
import { createModel } from '../../../src/engine/providers/index.js';
import { OpenAIChatModel } from '../../../src/engine/providers/openai.js';
import { providerRequestUrl } from '../../../src/engine/providers/registry.js';

const KEY = 'sk-proj-TESTKEY-abc123';
const URL = 'https://api.openai.com/v1/chat/completions';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

type Seen = { body: unknown; headers: Headers };

/** Answers each request with the next reply (the last one repeats) and records what was sent. */
function serve(url: string, ...replies: (() => Response)[]): Seen[] {
  const seen: Seen[] = [];
  server.use(
    http.post(url, async ({ request }) => {
      seen.push({ body: await request.json(), headers: request.headers });
      return replies[Math.min(seen.length - 1, replies.length - 1)]();
    }),
  );
  return seen;
}

function model(extra: Partial<HttpModelOptions> = {}) {
  const delays: number[] = [];
  const sleep = async (ms: number) => void delays.push(ms);
  const instance = new OpenAIChatModel({ model: 'gpt-4.1-mini', env: { OPENAI_API_KEY: KEY }, sleep, random: () => 0, ...extra });
  return { instance, delays };
}

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'You are a support bot.',
  messages: [{ role: 'user', content: 'Refund order 1234, it arrived broken.' }],
  tools: [],
  parameters: {},
  ...extra,
});

const ORDER = { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] };
const LOOKUP: ToolDefinition = { name: 'lookup_order', description: 'Look up an order by id.', parameters: ORDER };
const REFUND: ToolDefinition = {
  name: 'create_refund',
  description: 'Create a refund.',
  parameters: { ...ORDER, properties: { ...ORDER.properties, reason: { type: 'string' } } },
};

const USAGE = { prompt_tokens: 57, completion_tokens: 12, total_tokens: 69 };
/** A realistic Chat Completions response. */
function completion(message: Record<string, unknown>, finish = 'stop', usage: unknown = USAGE) {
  return () =>
    HttpResponse.json({
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      object: 'chat.completion',
      created: 1741569952,
      model: 'gpt-4.1-mini-2025-04-14',
      choices: [{ index: 0, message: { role: 'assistant', refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finish }],
      ...(usage === null ? {} : { usage }),
      service_tier: 'default',
      system_fingerprint: 'fp_6ec83003ad',
    });
}

function toolCall(id: string, name: string, args: string) {
  return { id, type: 'function', function: { name, arguments: args } };
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('OpenAIChatModel', () => {
  it('sends system, user, parameters and auth; maps a text answer', async () => {
    const seen = serve(URL, completion({ content: 'Sure, let me check that order.' }));
    const { instance } = model();
    const response = await instance.generate(request({ parameters: { temperature: 0, max_tokens: 256, top_p: 1 } }));

    expect(instance.provider).toBe('openai');
    expect(instance.modelId).toBe('gpt-4.1-mini');
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'You are a support bot.' },
        { role: 'user', content: 'Refund order 1234, it arrived broken.' },
      ],
      temperature: 0,
      max_tokens: 256,
      top_p: 1,
    });
    expect(seen[0].headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(seen[0].headers.get('content-type')).toBe('application/json');
    expect(response).toEqual({
      text: 'Sure, let me check that order.',
      toolCalls: [],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { input_tokens: 57, output_tokens: 12 },
      responseModel: 'gpt-4.1-mini-2025-04-14',
      responseId: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
    });
  });

  it('puts the path before a base URL query (Azure-style ?api-version=), not into it', async () => {
    const seen: string[] = [];
    server.use(
      http.post('https://res.openai.azure.com/openai/deployments/d1/chat/completions', ({ request }) => {
        seen.push(request.url);
        return completion({ content: 'ok' })();
      }),
    );
    const { instance } = model({ baseUrl: 'https://res.openai.azure.com/openai/deployments/d1/?api-version=2024-06-01' });
    expect((await instance.generate(request())).text).toBe('ok');
    expect(seen).toEqual(['https://res.openai.azure.com/openai/deployments/d1/chat/completions?api-version=2024-06-01']);
    expect(providerRequestUrl({ provider: 'openai', base_url: 'http://h/v1?a=1&b=2#x' }, {})).toBe('http://h/v1/chat/completions?a=1&b=2#x');
  });

  it('omits an empty system prompt and sends tools as functions', async () => {
    const seen = serve(URL, completion({ content: null, tool_calls: [toolCall('call_abc', 'lookup_order', '{"order_id":"1234"}')] }, 'tool_calls'));
    const response = await model().instance.generate(request({ system: '', tools: [LOOKUP] }));

    expect(seen[0].body).toEqual({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Refund order 1234, it arrived broken.' }],
      tools: [{ type: 'function', function: { name: 'lookup_order', description: 'Look up an order by id.', parameters: LOOKUP.parameters } }],
    });
    expect(response.text).toBe('');
    expect(response.toolCalls).toEqual([{ id: 'call_abc', name: 'lookup_order', args: { order_id: '1234' } }]);
    expect(response.finishReason).toEqual({ unified: 'tool_calls', raw: 'tool_calls' });
  });

  it('maps two parallel tool calls in order', async () => {
    const calls = [toolCall('call_1', 'lookup_order', '{"order_id":"1234"}'), toolCall('call_2', 'create_refund', '{"order_id":"1234","reason":"damaged"}')];
    serve(URL, completion({ content: 'Checking both.', tool_calls: calls }, 'tool_calls'));
    const response = await model().instance.generate(request({ tools: [LOOKUP, REFUND] }));
    expect(response.text).toBe('Checking both.');
    expect(response.toolCalls).toEqual([
      { id: 'call_1', name: 'lookup_order', args: { order_id: '1234' } },
      { id: 'call_2', name: 'create_refund', args: { order_id: '1234', reason: 'damaged' } },
    ]);
  });

  it('gives a tool call without an id, or with an empty one (some compatible servers), an id of its own', async () => {
    const calls = [toolCall('', 'lookup_order', '{"order_id":"1"}'), { type: 'function', function: { name: 'create_refund', arguments: '{}' } }];
    serve(URL, completion({ content: null, tool_calls: calls }, 'tool_calls'));
    const response = await model().instance.generate(request({ tools: [LOOKUP, REFUND] }));
    // A run paused at such a call keeps a checkpoint that resumes: a call id is never empty.
    expect(response.toolCalls.map((call) => call.id)).toEqual(['call_0', 'call_1']);
  });

  it('sends assistant tool calls and tool results back in the Chat Completions shape', async () => {
    const seen = serve(URL, completion({ content: 'Refund created.' }));
    const messages: Message[] = [
      { role: 'user', content: 'Refund order 1234, it arrived broken.' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { tool_call_id: 'call_1', tool_name: 'lookup_order', input: { order_id: '1234' } },
          { tool_call_id: 'call_2', tool_name: 'create_refund', input: { order_id: '1234', reason: 'damaged' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', tool_name: 'lookup_order', content: '{"status":"delivered"}', is_error: false },
      { role: 'tool', tool_call_id: 'call_2', tool_name: 'create_refund', content: 'refund service unavailable', is_error: true },
      { role: 'assistant', content: 'Let me retry.', tool_calls: [{ tool_call_id: 'call_3', tool_name: 'create_refund', input: { order_id: '1234' } }] },
      { role: 'tool', tool_call_id: 'call_3', tool_name: 'create_refund', content: '{"ok":true,"id":"r1"}', is_error: false },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks!' },
    ];
    await model().instance.generate(request({ messages, tools: [LOOKUP, REFUND] }));

    const functionTool = (t: ToolDefinition) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } });
    expect(seen[0].body).toEqual({ model: 'gpt-4.1-mini', messages: expect.any(Array), tools: [functionTool(LOOKUP), functionTool(REFUND)] });
    expect((seen[0].body as { messages: unknown }).messages).toEqual([
      { role: 'system', content: 'You are a support bot.' },
      { role: 'user', content: 'Refund order 1234, it arrived broken.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"1234"}' } },
          { id: 'call_2', type: 'function', function: { name: 'create_refund', arguments: '{"order_id":"1234","reason":"damaged"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"delivered"}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'refund service unavailable' },
      {
        role: 'assistant',
        content: 'Let me retry.',
        tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'create_refund', arguments: '{"order_id":"1234"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_3', content: '{"ok":true,"id":"r1"}' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks!' },
    ]);
  });

  it.each([
    ['stop', 'stop'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['length', 'length'],
    ['content_filter', 'content_filter'],
    ['something_new', 'other'],
  ])('maps finish_reason %s to %s', async (raw, unified) => {
    serve(URL, completion({ content: 'x' }, raw));
    expect((await model().instance.generate(request())).finishReason).toEqual({ unified, raw });
  });

  it('reports zero usage when the server sends none', async () => {
    serve(URL, completion({ content: 'hi' }, 'stop', null));
    expect((await model().instance.generate(request())).usage).toEqual({ input_tokens: 0, output_tokens: 0 });
  });

  it('uses OPENAI_BASE_URL, and options.baseUrl over it', async () => {
    const fromEnv = serve('https://proxy.test/openai/v1/chat/completions', completion({ content: 'env' }));
    await model({ env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'https://proxy.test/openai/v1/' } }).instance.generate(request());
    expect(fromEnv).toHaveLength(1);

    const fromOption = serve('https://other.test/v1/chat/completions', completion({ content: 'opt' }));
    const { instance } = model({ baseUrl: 'https://other.test/v1', env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: 'https://proxy.test/openai/v1' } });
    expect((await instance.generate(request())).text).toBe('opt');
    expect(fromOption).toHaveLength(1);
  });

  it('honours Retry-After on 429, then succeeds', async () => {
    const limited = { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } };
    const seen = serve(URL, () => HttpResponse.json(limited, { status: 429, headers: { 'retry-after': '2' } }), completion({ content: 'after the wait' }));
    const { instance, delays } = model();
    expect((await instance.generate(request())).text).toBe('after the wait');
    expect(seen).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it.each([
    ['a 500', () => HttpResponse.json({ error: { message: 'The server had an error' } }, { status: 500 })],
    ['a network error', () => HttpResponse.error()],
  ])('retries %s, then succeeds', async (_what, first) => {
    const seen = serve(URL, first, completion({ content: 'ok' }));
    expect((await model().instance.generate(request())).text).toBe('ok');
    expect(seen).toHaveLength(2);
  });

  it('fails with MODEL_RETRIES_EXHAUSTED when every attempt is rate limited', async () => {
    const seen = serve(URL, () => HttpResponse.json({ error: { message: 'Rate limit reached' } }, { status: 429 }));
    const error = await failure(model({ maxRetries: 2 }).instance.generate(request()));
    expect(error.code).toBe('MODEL_RETRIES_EXHAUSTED');
    expect(error.status).toBe(429);
    expect(error.provider).toBe('openai');
    expect(error.message).toContain('Rate limit reached');
    expect(seen).toHaveLength(3);
  });

  it('surfaces a 400 as MODEL_REQUEST_REJECTED with the API message and status', async () => {
    const error400 = { message: "Invalid value for 'temperature': must be <= 2.", type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' };
    const seen = serve(URL, () => HttpResponse.json({ error: error400 }, { status: 400 }));
    const error = await failure(model().instance.generate(request({ parameters: { temperature: 5 } })));
    expect(error.code).toBe('MODEL_REQUEST_REJECTED');
    expect(error.status).toBe(400);
    expect(error.message).toContain("Invalid value for 'temperature': must be <= 2.");
    expect(seen).toHaveLength(1);
  });

  it('rejects a body that is not JSON, and one without choices', async () => {
    serve(URL, () => new HttpResponse('{"id": "chatcmpl-1", "choices": [', { status: 200, headers: { 'content-type': 'application/json' } }));
    const notJson = await failure(model().instance.generate(request()));
    expect(notJson.code).toBe('MODEL_BAD_RESPONSE');
    expect(notJson.message).toContain('{"id": "chatcmpl-1", "choices": [');

    serve(URL, () => HttpResponse.json({ id: 'chatcmpl-2', object: 'chat.completion', choices: [] }));
    const noChoices = await failure(model().instance.generate(request()));
    expect(noChoices.code).toBe('MODEL_BAD_RESPONSE');
    expect(noChoices.message).toContain('choices');
    expect(noChoices.message).toContain('chatcmpl-2');
  });

  it('keeps tool arguments that are not JSON as a call with argsError, so only that call fails', async () => {
    serve(
      URL,
      completion(
        { content: null, tool_calls: [toolCall('call_1', 'lookup_order', '{"order_id": "12'), toolCall('call_2', 'lookup_order', '{"order_id": "7"}')] },
        'tool_calls',
      ),
    );
    const response = await model().instance.generate(request({ tools: [LOOKUP] }));
    expect(response.toolCalls[0]).toMatchObject({ id: 'call_1', name: 'lookup_order', args: '{"order_id": "12' });
    expect(response.toolCalls[0].argsError).toMatch(/^the arguments are not valid JSON \(/);
    expect(response.toolCalls[1]).toEqual({ id: 'call_2', name: 'lookup_order', args: { order_id: '7' } });
  });

  it('fails before any request when the key is missing, naming OPENAI_API_KEY', async () => {
    const seen = serve(URL, completion({ content: 'never' }));
    const error = await failure(model({ env: {} }).instance.generate(request()));
    expect(error.code).toBe('MODEL_NO_API_KEY');
    expect(error.message).toContain('OPENAI_API_KEY');
    // A library caller constructing the model has the apiKey option; a model made from an llm spec does not.
    expect(error.message).toContain('(or pass apiKey)');
    const fromSpec = await failure(createModel({ provider: 'openai', model: 'gpt-x' }, { env: {} }).generate(request()));
    expect(fromSpec.message).toBe('openai: no API key: set OPENAI_API_KEY in the environment to call https://api.openai.com/v1');
    expect(seen).toHaveLength(0);
  });

  it('allows a missing key for a local server and sends no Authorization header', async () => {
    const seen = serve('http://localhost:11434/v1/chat/completions', completion({ content: 'local' }));
    const response = await model({ env: { OPENAI_BASE_URL: 'http://localhost:11434/v1' } }).instance.generate(request());
    expect(response.text).toBe('local');
    expect(seen[0].headers.has('authorization')).toBe(false);
  });

  it('never puts the API key into an error message', async () => {
    const message = `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`;
    serve(URL, () => HttpResponse.json({ error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } }, { status: 401 }));
    const rejected = await failure(model().instance.generate(request()));
    expect(rejected.code).toBe('MODEL_REQUEST_REJECTED');
    expect(rejected.status).toBe(401);

    serve(URL, () => new HttpResponse(`proxy error for Bearer ${KEY}`, { status: 502 }));
    const exhausted = await failure(model({ maxRetries: 1 }).instance.generate(request()));

    serve(URL, () => new HttpResponse(`<html>${KEY}</html>`, { status: 200 }));
    const malformed = await failure(model().instance.generate(request()));

    for (const error of [rejected, exhausted, malformed]) {
      expect(error.message).not.toContain(KEY);
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(KEY);
    }
  });
});
