import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/config/errors.js';
import type { Message } from '../../../src/engine/model/message.js';
import type { ModelRequest, ToolDefinition } from '../../../src/engine/model/model.js';
import { AnthropicMessagesModel } from '../../../src/engine/providers/anthropic.js';
import type { HttpModelOptions } from '../../../src/engine/providers/http-model-options.js';

const KEY = 'sk-ant-api03-TESTKEY-xyz789';
const URL = 'https://api.anthropic.com/v1/messages';
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
  const instance = new AnthropicMessagesModel({ model: 'claude-sonnet-4-5', env: { ANTHROPIC_API_KEY: KEY }, sleep, random: () => 0, ...extra });
  return { instance, delays };
}

const USER = 'Refund order 1234, it arrived broken.';
const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'You are a support bot.',
  messages: [{ role: 'user', content: USER }],
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

const USAGE = { input_tokens: 412, output_tokens: 38, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard' };
/** A realistic Messages API response. */
function message(content: unknown[], stopReason = 'end_turn', usage: unknown = USAGE) {
  return () =>
    HttpResponse.json({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      ...(usage === null ? {} : { usage }),
    });
}

/** A realistic Messages API error body. */
function apiError(status: number, type: string, text: string, headers: Record<string, string> = {}) {
  return () => HttpResponse.json({ type: 'error', error: { type, message: text }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' }, { status, headers });
}

const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('AnthropicMessagesModel', () => {
  it('sends system, max_tokens, parameters and headers; maps a text answer', async () => {
    const seen = serve(
      URL,
      message([
        { type: 'text', text: 'Sure, ' },
        { type: 'text', text: 'let me check.' },
      ]),
    );
    const { instance } = model();
    const response = await instance.generate(request({ parameters: { temperature: 0, top_k: 5 } }));

    expect(instance.provider).toBe('anthropic');
    expect(instance.modelId).toBe('claude-sonnet-4-5');
    expect(seen[0].body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'You are a support bot.',
      messages: [{ role: 'user', content: USER }],
      temperature: 0,
      top_k: 5,
    });
    expect(seen[0].headers.get('x-api-key')).toBe(KEY);
    expect(seen[0].headers.get('anthropic-version')).toBe('2023-06-01');
    expect(seen[0].headers.get('content-type')).toBe('application/json');
    expect(seen[0].headers.has('authorization')).toBe(false);
    expect(response).toEqual({
      text: 'Sure, let me check.',
      toolCalls: [],
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: { input_tokens: 412, output_tokens: 38, cached_input_tokens: 0 },
      responseModel: 'claude-sonnet-4-5-20250929',
      responseId: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    });
  });

  it('omits an empty system prompt, takes max_tokens from parameters and sends tools with input_schema', async () => {
    const seen = serve(URL, message([toolUse('toolu_01A', 'lookup_order', { order_id: '1234' })], 'tool_use'));
    const response = await model().instance.generate(request({ system: '', tools: [LOOKUP], parameters: { max_tokens: 4096 } }));

    expect(seen[0].body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      messages: [{ role: 'user', content: USER }],
      tools: [{ name: 'lookup_order', description: 'Look up an order by id.', input_schema: ORDER }],
    });
    expect(response.text).toBe('');
    expect(response.toolCalls).toEqual([{ id: 'toolu_01A', name: 'lookup_order', args: { order_id: '1234' } }]);
    expect(response.finishReason).toEqual({ unified: 'tool_calls', raw: 'tool_use' });
  });

  it('maps text plus two parallel tool_use blocks in order', async () => {
    const content = [
      { type: 'text', text: 'I will look up the order and file the refund.' },
      toolUse('toolu_01A', 'lookup_order', { order_id: '1234' }),
      toolUse('toolu_01B', 'create_refund', { order_id: '1234', reason: 'damaged' }),
    ];
    serve(URL, message(content, 'tool_use'));
    const response = await model().instance.generate(request({ tools: [LOOKUP, REFUND] }));
    expect(response.text).toBe('I will look up the order and file the refund.');
    expect(response.toolCalls).toEqual([
      { id: 'toolu_01A', name: 'lookup_order', args: { order_id: '1234' } },
      { id: 'toolu_01B', name: 'create_refund', args: { order_id: '1234', reason: 'damaged' } },
    ]);
  });

  it('sends tool_use blocks and merges consecutive tool results into one user message', async () => {
    const seen = serve(URL, message([{ type: 'text', text: 'Refund created.' }]));
    const messages: Message[] = [
      { role: 'user', content: USER },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { tool_call_id: 'toolu_01A', tool_name: 'lookup_order', input: { order_id: '1234' } },
          { tool_call_id: 'toolu_01B', tool_name: 'create_refund', input: { order_id: '1234', reason: 'damaged' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_01A', tool_name: 'lookup_order', content: '{"status":"delivered"}', is_error: false },
      { role: 'tool', tool_call_id: 'toolu_01B', tool_name: 'create_refund', content: 'refund service unavailable', is_error: true },
      { role: 'assistant', content: 'Retrying.', tool_calls: [{ tool_call_id: 'toolu_01C', tool_name: 'create_refund', input: { order_id: '1234' } }] },
      { role: 'tool', tool_call_id: 'toolu_01C', tool_name: 'create_refund', content: '{"ok":true,"id":"r1"}', is_error: false },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks!' },
    ];
    await model().instance.generate(request({ messages, tools: [LOOKUP, REFUND] }));

    expect(seen[0].body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'You are a support bot.',
      messages: [
        { role: 'user', content: USER },
        {
          role: 'assistant',
          content: [toolUse('toolu_01A', 'lookup_order', { order_id: '1234' }), toolUse('toolu_01B', 'create_refund', { order_id: '1234', reason: 'damaged' })],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01A', content: '{"status":"delivered"}', is_error: false },
            { type: 'tool_result', tool_use_id: 'toolu_01B', content: 'refund service unavailable', is_error: true },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Retrying.' }, toolUse('toolu_01C', 'create_refund', { order_id: '1234' })] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01C', content: '{"ok":true,"id":"r1"}', is_error: false }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
        { role: 'user', content: 'Thanks!' },
      ],
      tools: [
        { name: 'lookup_order', description: 'Look up an order by id.', input_schema: LOOKUP.parameters },
        { name: 'create_refund', description: 'Create a refund.', input_schema: REFUND.parameters },
      ],
    });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'refusal'],
    ['pause_turn', 'pause'],
    ['something_new', 'other'],
  ])('maps stop_reason %s to %s', async (raw, unified) => {
    serve(URL, message([{ type: 'text', text: 'x' }], raw));
    expect((await model().instance.generate(request())).finishReason).toEqual({ unified, raw });
  });

  it('counts cached prompt tokens as input and reports zero usage when absent', async () => {
    serve(URL, message([{ type: 'text', text: 'x' }], 'end_turn', { ...USAGE, cache_creation_input_tokens: 100, cache_read_input_tokens: 50 }));
    expect((await model().instance.generate(request())).usage).toEqual({ input_tokens: 562, output_tokens: 38, cached_input_tokens: 50 });
    serve(URL, message([{ type: 'text', text: 'x' }], 'end_turn', null));
    expect((await model().instance.generate(request())).usage).toEqual({ input_tokens: 0, output_tokens: 0 });
  });

  it('uses ANTHROPIC_BASE_URL, and options.baseUrl over it', async () => {
    const fromEnv = serve('https://gateway.test/anthropic/v1/messages', message([{ type: 'text', text: 'env' }]));
    await model({ env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'https://gateway.test/anthropic/' } }).instance.generate(request());
    expect(fromEnv).toHaveLength(1);
    const fromOption = serve('https://other.test/v1/messages', message([{ type: 'text', text: 'opt' }]));
    const { instance } = model({ baseUrl: 'https://other.test', env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: 'https://gateway.test' } });
    expect((await instance.generate(request())).text).toBe('opt');
    expect(fromOption).toHaveLength(1);
  });

  it('honours Retry-After on 429, then succeeds', async () => {
    const limited = apiError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '7' });
    const seen = serve(URL, limited, message([{ type: 'text', text: 'after the wait' }]));
    const { instance, delays } = model();
    expect((await instance.generate(request())).text).toBe('after the wait');
    expect(seen).toHaveLength(2);
    expect(delays).toEqual([7000]);
  });

  it.each([
    ['a 529 overload', apiError(529, 'overloaded_error', 'Overloaded')],
    ['a 500', apiError(500, 'api_error', 'Internal server error')],
    ['a network error', () => HttpResponse.error()],
  ])('retries %s, then succeeds', async (_what, first) => {
    const seen = serve(URL, first, message([{ type: 'text', text: 'ok' }]));
    expect((await model().instance.generate(request())).text).toBe('ok');
    expect(seen).toHaveLength(2);
  });

  it('fails with MODEL_RETRIES_EXHAUSTED naming the last status and message', async () => {
    const seen = serve(URL, apiError(529, 'overloaded_error', 'Overloaded'));
    const error = await failure(model({ maxRetries: 3 }).instance.generate(request()));
    expect(error.code).toBe('MODEL_RETRIES_EXHAUSTED');
    expect(error.status).toBe(529);
    expect(error.message).toContain('HTTP 529');
    expect(error.message).toContain('Overloaded');
    expect(seen).toHaveLength(4);
  });

  it('surfaces a 400 as MODEL_REQUEST_REJECTED with the API message and status', async () => {
    const seen = serve(URL, apiError(400, 'invalid_request_error', 'max_tokens: 999999 > 64000, which is the maximum allowed number of output tokens'));
    const error = await failure(model().instance.generate(request({ parameters: { max_tokens: 999999 } })));
    expect(error.code).toBe('MODEL_REQUEST_REJECTED');
    expect(error.status).toBe(400);
    expect(error.provider).toBe('anthropic');
    expect(error.message).toContain('max_tokens: 999999 > 64000');
    expect(seen).toHaveLength(1);
  });

  it('rejects a body that is not JSON, and one without content', async () => {
    serve(URL, () => new HttpResponse('{"id":"msg_01","content":[{"type":"te', { status: 200, headers: { 'content-type': 'application/json' } }));
    const notJson = await failure(model().instance.generate(request()));
    expect(notJson.code).toBe('MODEL_BAD_RESPONSE');
    expect(notJson.message).toContain('{"id":"msg_01","content":[{"type":"te');

    serve(URL, () => HttpResponse.json({ id: 'msg_02', type: 'message', role: 'assistant' }));
    const noContent = await failure(model().instance.generate(request()));
    expect(noContent.code).toBe('MODEL_BAD_RESPONSE');
    expect(noContent.message).toContain('content');
    expect(noContent.message).toContain('msg_02');
  });

  it('fails before any request when the key is missing, naming ANTHROPIC_API_KEY', async () => {
    const seen = serve(URL, message([{ type: 'text', text: 'never' }]));
    const error = await failure(model({ env: { ANTHROPIC_API_KEY: '' } }).instance.generate(request()));
    expect(error.code).toBe('MODEL_NO_API_KEY');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
    expect(seen).toHaveLength(0);
  });

  it('never puts the API key into an error message', async () => {
    serve(URL, apiError(401, 'authentication_error', `invalid x-api-key: ${KEY}`));
    const rejected = await failure(model().instance.generate(request()));
    expect(rejected.code).toBe('MODEL_REQUEST_REJECTED');
    expect(rejected.status).toBe(401);
    serve(URL, () => new HttpResponse(`upstream saw x-api-key ${KEY}`, { status: 503 }));
    const exhausted = await failure(model({ maxRetries: 1 }).instance.generate(request()));
    serve(URL, () => new HttpResponse(`<html>${KEY}</html>`, { status: 200 }));
    const malformed = await failure(model().instance.generate(request()));
    for (const error of [rejected, exhausted, malformed]) {
      expect(error.message).not.toContain(KEY);
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(KEY);
    }
  });
});
