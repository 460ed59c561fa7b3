import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { engineFetch } from '../../../src/engine/engine-fetch.js';
import { interceptingFetch } from '../../../src/runner/mocks/fetch-interception.js';
import { withHttpMocks, type HttpMock, type UnmatchedRequest } from '../../../src/runner/mocks/http-mocks.js';

/** A scope of `mocks` for withHttpMocks. */
const scopeOf = (mocks: HttpMock[]) => ({ mocks, passthroughOrigins: [], unmatched: [] as UnmatchedRequest[] });

describe('the fetch that scenario mocks answer through', () => {
  it('follows a mocked redirect as fetch does: 307 keeps the POST and its body, 303 turns into a GET', async () => {
    const scope = scopeOf([
      { method: 'POST', url: 'https://shop.test/old', status: 307, headers: { location: '/new' } },
      { method: 'POST', url: 'https://shop.test/new', match: { json: { id: 1 } }, status: 303, headers: { location: 'https://shop.test/done?x=1' } },
      { method: 'GET', url: 'https://shop.test/done?x=1', json: { done: true } },
    ]);
    const response = await withHttpMocks(scope, () => engineFetch('https://shop.test/old', { method: 'POST', body: JSON.stringify({ id: 1 }) }));
    expect({ status: response.status, url: response.url, body: await response.json() }).toEqual({
      status: 200,
      url: 'https://shop.test/done?x=1',
      body: { done: true },
    });
    expect(scope.unmatched).toEqual([]);
  });

  it('hands back a redirect itself with redirect: "manual", and fails it with redirect: "error"', async () => {
    const scope = scopeOf([{ url: 'https://shop.test/old', status: 302, headers: { location: '/new' } }]);
    const manual = await withHttpMocks(scope, () => engineFetch('https://shop.test/old', { redirect: 'manual' }));
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/new']);
    const refused = await withHttpMocks(scope, () => engineFetch('https://shop.test/old', { redirect: 'error' }).catch((error: Error) => error));
    expect(refused).toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { message: 'unexpected redirect' } });
  });

  it('answers a HEAD request without a body, as fetch does, keeping the headers', async () => {
    const scope = scopeOf([{ method: 'HEAD', url: 'https://shop.test/x', json: { a: 1 }, headers: { 'x-count': '5' } }]);
    const response = await withHttpMocks(scope, () => engineFetch('https://shop.test/x', { method: 'HEAD' }));
    expect([response.status, response.headers.get('x-count'), await response.text()]).toEqual([200, '5', '']);
  });

  it('stops a redirect loop after 20 redirects, as fetch does', async () => {
    const scope = scopeOf([{ url: 'https://shop.test/loop', status: 302, headers: { location: '/loop' } }]);
    const error = await withHttpMocks(scope, () => engineFetch('https://shop.test/loop').catch((failure: Error) => failure));
    expect(error).toMatchObject({ message: 'fetch failed', cause: { message: 'redirect count exceeded' } });
  });

  it('fails an unmatched request as a network error, and a request given up during a delay with its abort reason', async () => {
    const scope = scopeOf([{ url: 'https://shop.test/slow', delay_ms: 60_000, json: {} }]);
    const unmatched = await withHttpMocks(scope, () => engineFetch('https://shop.test/other').catch((error: Error) => error));
    expect(unmatched).toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { message: 'no mock matched GET https://shop.test/other' } });
    expect(scope.unmatched.map((miss) => miss.request)).toEqual(['GET https://shop.test/other']);
    const controller = new AbortController();
    const slow = withHttpMocks(scope, () => engineFetch('https://shop.test/slow', { signal: controller.signal }).catch((error: Error) => error));
    controller.abort(new Error('given up'));
    expect(await slow).toMatchObject({ message: 'given up' });
  });

  it('leaves requests outside any run to globalThis.fetch', async () => {
    await withHttpMocks(scopeOf([]), async () => undefined);
    // No run: the request is not answered by mocks and fails for real (port 9 is one fetch refuses).
    const error = await engineFetch('http://127.0.0.1:9/').catch((failure: Error) => failure);
    expect(error).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });
});

describe('requests other code sends inside a run', () => {
  it("are not the mocks' business: globalThis.fetch is never replaced (an MCP session, a user's own code)", async () => {
    const server = createServer((_request, response) => response.end('live'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const before = globalThis.fetch;
    try {
      const scope = scopeOf([]);
      const answers = await withHttpMocks(scope, async () => {
        const other = await fetch(url, { method: 'POST', body: '{}' }).then((response) => response.text());
        const engine = await engineFetch(url, { method: 'POST', body: '{}' }).then(
          () => 'answered',
          () => 'refused',
        );
        return { other, engine, sameFetch: globalThis.fetch === before };
      });
      expect(answers).toEqual({ other: 'live', engine: 'refused', sameFetch: true });
      expect(scope.unmatched.map((miss) => miss.request)).toEqual([`POST ${url}`]);
    } finally {
      server.close();
    }
  });
});

describe('interceptingFetch, redirects to another origin', () => {
  it('leaves Authorization and Cookie behind, as fetch does, and keeps them on the same origin', async () => {
    const { FetchResponse } = await import('@mswjs/interceptors');
    const seen: Array<[string, string | null, string | null]> = [];
    const answers: Record<string, Response> = {
      'https://a.test/start': new Response(null, { status: 302, headers: { location: '/same' } }),
      'https://a.test/same': new Response(null, { status: 307, headers: { location: 'https://b.test/other' } }),
      'https://b.test/other': new Response('done'),
    };
    const intercepting = interceptingFetch(
      () => Promise.reject(new Error('nothing goes out')),
      async (request) => {
        seen.push([request.url, request.headers.get('authorization'), request.headers.get('cookie')]);
        return answers[request.url];
      },
      FetchResponse,
    );
    const response = await intercepting('https://a.test/start', { headers: { authorization: 'Bearer t', cookie: 'sid=1' } });
    expect(await response.text()).toBe('done');
    expect(seen).toEqual([
      ['https://a.test/start', 'Bearer t', 'sid=1'],
      ['https://a.test/same', 'Bearer t', 'sid=1'],
      ['https://b.test/other', null, null],
    ]);
  });
});
