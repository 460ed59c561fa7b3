import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/config/errors.js';
import type { HttpModelOptions } from '../../../src/engine/providers/http-model-options.js';
import { postJsonWithRetry, type JsonPost } from '../../../src/engine/providers/http-retry.js';

const URL = 'https://llm.test/v1/echo';
const KEY = 'sk-retry-SECRET-0001';
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Serves the given responses in order, counting requests. */
function serve(...responses: (() => Response)[]) {
  const seen = { count: 0 };
  server.use(
    http.post(URL, () => {
      const next = responses[Math.min(seen.count, responses.length - 1)];
      seen.count++;
      return next();
    }),
  );
  return seen;
}

/** Options with a recording sleep and fixed jitter, so nothing waits and delays are exact. */
function harness(extra: Partial<HttpModelOptions> = {}) {
  const delays: number[] = [];
  const options: HttpModelOptions = {
    model: 'm',
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...extra,
  };
  return { delays, options };
}

const post = (extra: Partial<JsonPost> = {}): JsonPost => ({
  provider: 'openai',
  url: URL,
  headers: { 'content-type': 'application/json' },
  body: { hello: 'world' },
  secrets: [KEY],
  ...extra,
});

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

const ok = () => HttpResponse.json({ ok: true });

describe('postJsonWithRetry', () => {
  it('posts the JSON body with the given headers and returns the parsed reply', async () => {
    let seen: { body: unknown; type: string | null } | undefined;
    server.use(
      http.post(URL, async ({ request }) => {
        seen = { body: await request.json(), type: request.headers.get('content-type') };
        return HttpResponse.json({ answer: 42 });
      }),
    );
    const reply = await postJsonWithRetry(post(), harness().options);
    expect(seen).toEqual({ body: { hello: 'world' }, type: 'application/json' });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ answer: 42 });
  });

  it('backs off exponentially with full jitter on 5xx', async () => {
    const seen = serve(
      () => HttpResponse.json({ error: { message: 'boom' } }, { status: 500 }),
      () => new HttpResponse('bad gateway', { status: 502 }),
      () => HttpResponse.json({ error: { message: 'overloaded' } }, { status: 529 }),
      ok,
    );
    const { delays, options } = harness({ retryBaseMs: 100 });
    await postJsonWithRetry(post(), options);
    expect(seen.count).toBe(4);
    // random() = 0.5 of 100, 200, 400.
    expect(delays).toEqual([50, 100, 200]);
  });

  it('caps the backoff ceiling at maxRetryDelayMs', async () => {
    serve(
      () => new HttpResponse(null, { status: 503 }),
      () => new HttpResponse(null, { status: 503 }),
      ok,
    );
    const { delays, options } = harness({ retryBaseMs: 1000, maxRetryDelayMs: 1500, random: () => 0.999 });
    await postJsonWithRetry(post(), options);
    expect(delays).toEqual([999, 1498]);
  });

  it('honours Retry-After in seconds, retry-after-ms, and an HTTP date', async () => {
    const date = new Date(Date.now() + 10_000).toUTCString();
    serve(
      () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '3' } }),
      () => HttpResponse.json({}, { status: 429, headers: { 'retry-after-ms': '1250', 'retry-after': '9' } }),
      () => HttpResponse.json({}, { status: 503, headers: { 'retry-after': date } }),
      ok,
    );
    const { delays, options } = harness();
    await postJsonWithRetry(post(), options);
    expect(delays.slice(0, 2)).toEqual([3000, 1250]);
    // An HTTP date has whole seconds, so the wait is a little under 10 s.
    expect(delays[2]).toBeGreaterThan(8000);
    expect(delays[2]).toBeLessThanOrEqual(10_000);
  });

  it('caps Retry-After at maxRetryDelayMs and ignores a junk value', async () => {
    serve(
      () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '3600' } }),
      () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': 'soon' } }),
      ok,
    );
    const { delays, options } = harness({ maxRetryDelayMs: 5000, retryBaseMs: 100 });
    await postJsonWithRetry(post(), options);
    expect(delays).toEqual([5000, 100]);
  });

  it('does not retry a 4xx other than 429 and surfaces the provider message', async () => {
    const seen = serve(() => HttpResponse.json({ error: { message: 'model not found' } }, { status: 404 }));
    const { delays, options } = harness();
    const error = await failure(postJsonWithRetry(post(), options));
    expect(error.code).toBe('MODEL_REQUEST_REJECTED');
    expect(error.status).toBe(404);
    expect(error.message).toContain('model not found');
    expect(seen.count).toBe(1);
    expect(delays).toEqual([]);
  });

  it('gives up after maxRetries retries, naming the last status and message', async () => {
    const seen = serve(() => HttpResponse.json({ error: { message: 'upstream down' } }, { status: 503 }));
    const { delays, options } = harness({ maxRetries: 2 });
    const error = await failure(postJsonWithRetry(post(), options));
    expect(error.code).toBe('MODEL_RETRIES_EXHAUSTED');
    expect(error.status).toBe(503);
    expect(error.message).toContain('after 3 attempts');
    expect(error.message).toContain('HTTP 503');
    expect(error.message).toContain('upstream down');
    expect(seen.count).toBe(3);
    expect(delays).toHaveLength(2);
  });

  it('defaults to 4 retries (5 attempts)', async () => {
    const seen = serve(() => new HttpResponse('nope', { status: 500 }));
    const error = await failure(postJsonWithRetry(post(), harness().options));
    expect(error.code).toBe('MODEL_RETRIES_EXHAUSTED');
    expect(seen.count).toBe(5);
  });

  it('retries network errors and names the last one when exhausted', async () => {
    const seen = serve(() => HttpResponse.error());
    const error = await failure(postJsonWithRetry(post(), harness({ maxRetries: 1 }).options));
    expect(error.code).toBe('MODEL_RETRIES_EXHAUSTED');
    expect(error.message).toContain('network error');
    expect(error.status).toBeUndefined();
    expect(seen.count).toBe(2);
  });

  it('retries a network error, then succeeds', async () => {
    const seen = serve(() => HttpResponse.error(), ok);
    const reply = await postJsonWithRetry(post(), harness().options);
    expect(reply.json).toEqual({ ok: true });
    expect(seen.count).toBe(2);
  });

  it('treats an attempt timeout as retryable and reports MODEL_TIMEOUT at the end', async () => {
    let calls = 0;
    // A server that never answers: the fetch settles only when its signal aborts.
    const hanging: typeof fetch = (_input, init) => {
      calls++;
      return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    const { delays, options } = harness({ fetch: hanging, timeoutMs: 5, maxRetries: 1 });
    const error = await failure(postJsonWithRetry(post(), options));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(calls).toBe(2);
    expect(delays).toHaveLength(1);
  });

  it('recovers when a timed-out attempt is followed by an answer', async () => {
    let calls = 0;
    const flaky: typeof fetch = (_input, init) => {
      calls++;
      if (calls === 2) return Promise.resolve(Response.json({ ok: true }));
      return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    const reply = await postJsonWithRetry(post(), harness({ fetch: flaky, timeoutMs: 5 }).options);
    expect(reply.json).toEqual({ ok: true });
  });

  it('stops with MODEL_ABORTED when the signal aborts during a backoff, without another attempt', async () => {
    const seen = serve(() => new HttpResponse(null, { status: 500 }));
    const controller = new AbortController();
    const options = harness({
      sleep: async () => {
        controller.abort();
      },
    }).options;
    const error = await failure(postJsonWithRetry(post({ signal: controller.signal }), options));
    expect(error.code).toBe('MODEL_ABORTED');
    expect(seen.count).toBe(1);
  });

  it('stops with MODEL_ABORTED when aborted during the real (default) sleep', async () => {
    serve(() => new HttpResponse(null, { status: 500 }));
    const controller = new AbortController();
    const { sleep: _sleep, ...options } = harness({ retryBaseMs: 60_000, random: () => 1 }).options;
    const pending = postJsonWithRetry(post({ signal: controller.signal }), options);
    setTimeout(() => controller.abort(), 20);
    const error = await failure(pending);
    expect(error.code).toBe('MODEL_ABORTED');
  });

  it('stops with MODEL_ABORTED when aborted during a request, and sends nothing when aborted before', async () => {
    const controller = new AbortController();
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const pending = postJsonWithRetry(post({ signal: controller.signal }), harness({ fetch: hanging }).options);
    controller.abort();
    expect((await failure(pending)).code).toBe('MODEL_ABORTED');

    const seen = serve(ok);
    const again = postJsonWithRetry(post({ signal: controller.signal }), harness().options);
    expect((await failure(again)).code).toBe('MODEL_ABORTED');
    expect(seen.count).toBe(0);
  });

  it('rejects a 2xx body that is not JSON with an excerpt', async () => {
    serve(() => new HttpResponse('<html>gateway says hi</html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    const error = await failure(postJsonWithRetry(post(), harness().options));
    expect(error.code).toBe('MODEL_BAD_RESPONSE');
    expect(error.message).toContain('<html>gateway says hi</html>');
  });

  it('never puts a secret into an error message', async () => {
    serve(() => HttpResponse.json({ error: { message: `Incorrect API key provided: ${KEY}` } }, { status: 401 }));
    const rejected = await failure(postJsonWithRetry(post(), harness().options));
    expect(rejected.message).toContain('[redacted]');

    serve(() => new HttpResponse(`upstream echoed ${KEY}`, { status: 502 }));
    const exhausted = await failure(postJsonWithRetry(post(), harness({ maxRetries: 0 }).options));

    serve(() => new HttpResponse(`not json ${KEY}`, { status: 200 }));
    const malformed = await failure(postJsonWithRetry(post(), harness().options));

    const throwing: typeof fetch = () => Promise.reject(new TypeError(`connect failed for ${KEY}`));
    const network = await failure(postJsonWithRetry(post(), harness({ fetch: throwing, maxRetries: 0 }).options));

    // A JSON reply of the wrong shape, refused by the provider's mapping with its excerpt.
    serve(() => HttpResponse.json({ unexpected: `echo ${KEY}` }, { status: 200 }));
    const wrongShape = (await postJsonWithRetry(post(), harness().options)).malformed('response has no choices');
    expect(wrongShape.message).toContain('response has no choices: {"unexpected":"echo [redacted]"}');

    for (const error of [rejected, exhausted, malformed, network, wrongShape]) expect(error.message).not.toContain(KEY);
  });
});
