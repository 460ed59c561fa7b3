import http, { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ModelError } from '../../../src/config/errors.js';
import type { HttpModelOptions } from '../../../src/engine/providers/http-model-options.js';
import { postJsonWithRetry, type JsonPost } from '../../../src/engine/providers/http-retry.js';

// Provider requests go straight through node:http when nothing intercepts fetch
// (src/engine/providers/direct-post.ts). Against a real server on 127.0.0.1, each case is
// compared with the same request sent through fetch (options.fetch), which must read the same.

interface Seen {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
const seen: Seen[] = [];
const routes: Record<string, (res: ServerResponse) => void> = {
  '/json': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  '/gzip': (res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('\uFEFF{"zipped":"é"}')),
  '/redirect': (res) => res.writeHead(307, { location: '/json' }).end(),
  '/cut-off': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
    res.write('{"choices":');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  '/busy': (res) => res.writeHead(429, { 'retry-after-ms': '7', 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}'),
  // Never answers: the request must be given up by its caller (abort, timeout).
  '/hang': (res) => hanging.push(res),
  // Sends the head and part of the body, then stalls.
  '/stall': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
    res.write('{"choices":');
    hanging.push(res);
  },
};
const hanging: ServerResponse[] = [];
/** Resolves when the server has seen the connection of `res` close. */
const closed = (res: ServerResponse) => new Promise<void>((resolve) => (res.socket?.destroyed ? resolve() : res.socket?.once('close', () => resolve())));
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      routes[req.url ?? '']?.(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // Idle keep-alive connections would hold close() for seconds.
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  seen.length = 0;
  for (const res of hanging.splice(0)) res.destroy();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const post = (path: string): JsonPost => ({
  provider: 'openai',
  url: `${base}${path}`,
  headers: { 'content-type': 'application/json', Authorization: 'Bearer sk-x' },
  body: { model: 'm', n: 1 },
  secrets: ['sk-x'],
});
const direct: HttpModelOptions = { model: 'm', maxRetries: 0 };
const viaFetch: HttpModelOptions = { ...direct, fetch: (url, init) => fetch(url, init) };
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (reply) => ({ reply }),
    (error: ModelError) => ({ error: { code: error.code, message: error.message } }),
  );

describe('provider requests straight through node:http', () => {
  it('sends what fetch sends: the same headers and body', async () => {
    await postJsonWithRetry(post('/json'), viaFetch);
    await postJsonWithRetry(post('/json'), direct);
    const [byFetch, byHttp] = seen;
    expect(byHttp.body).toBe(byFetch.body);
    expect(byHttp.headers).toEqual(byFetch.headers);
  });

  it('reads a reply as fetch does: gzip undone, a byte order mark dropped, UTF-8 decoded', async () => {
    const reply = await postJsonWithRetry(post('/gzip'), direct);
    expect(reply.json).toEqual({ zipped: 'é' });
    expect(reply.json).toEqual((await postJsonWithRetry(post('/gzip'), viaFetch)).json);
  });

  it('follows a redirect as fetch does', async () => {
    const reply = await postJsonWithRetry(post('/redirect'), direct);
    expect(reply.json).toEqual({ ok: true });
    expect(seen.map((request) => request.path)).toEqual(['/redirect', '/redirect', '/json']);
  });

  it('fails with the same errors as fetch: a body cut off, a retry hint, a refused connection, a port fetch refuses', async () => {
    for (const path of ['/cut-off', '/busy']) {
      expect(await outcome(postJsonWithRetry(post(path), direct))).toEqual(await outcome(postJsonWithRetry(post(path), viaFetch)));
    }
    // A port nothing listens on (the server's, once closed), and one fetch refuses outright.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const url of [`http://127.0.0.1:${port}/v1`, 'http://127.0.0.1:6000/v1']) {
      const byHttp = await outcome(postJsonWithRetry({ ...post('/json'), url }, direct));
      expect(byHttp).toEqual(await outcome(postJsonWithRetry({ ...post('/json'), url }, viaFetch)));
      expect(byHttp).toMatchObject({
        error: { code: 'MODEL_RETRIES_EXHAUSTED', message: expect.stringMatching(/network error: fetch failed \((connect ECONNREFUSED|bad port)/) },
      });
    }
  });

  it('stops with MODEL_ABORTED when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await outcome(postJsonWithRetry({ ...post('/json'), signal: controller.signal }, direct))).toMatchObject({ error: { code: 'MODEL_ABORTED' } });
  });

  it('gives a request up when the caller aborts while it waits, before or after the reply head, and closes its connection', async () => {
    for (const path of ['/hang', '/stall']) {
      const controller = new AbortController();
      const pending = outcome(postJsonWithRetry({ ...post(path), signal: controller.signal }, direct));
      await vi.waitFor(() => expect(hanging).toHaveLength(1));
      controller.abort(new Error('user stop'));
      expect(await pending).toMatchObject({ error: { code: 'MODEL_ABORTED', message: `openai: request to ${base}${path} was aborted` } });
      await closed(hanging.pop()!);
    }
  });

  it('times an attempt out as fetch does (MODEL_TIMEOUT), leaving no request open', async () => {
    for (const path of ['/hang', '/stall']) {
      const byHttp = await outcome(postJsonWithRetry(post(path), { ...direct, timeoutMs: 50 }));
      expect(byHttp).toEqual({
        error: { code: 'MODEL_TIMEOUT', message: `openai: request to ${base}${path} failed after 1 attempt: the last attempt timed out` },
      });
      await closed(hanging.pop()!);
      expect(byHttp).toEqual(await outcome(postJsonWithRetry(post(path), { ...viaFetch, timeoutMs: 50 })));
      await closed(hanging.pop()!);
    }
  });

  it("calls http.request as patched at the time (an interceptor of node:http, such as msw's, sees the request)", async () => {
    const patched = vi.spyOn(http, 'request');
    expect((await postJsonWithRetry(post('/json'), direct)).json).toEqual({ ok: true });
    expect(patched).toHaveBeenCalledOnce();
  });

  it('goes through fetch once something replaced it (msw for mocks and cassettes, a stub)', async () => {
    const stub = vi.fn(async () => Response.json({ stubbed: true }));
    vi.stubGlobal('fetch', stub);
    expect((await postJsonWithRetry(post('/json'), direct)).json).toEqual({ stubbed: true });
    expect(stub).toHaveBeenCalledOnce();
    expect(seen).toEqual([]);
  });
});
