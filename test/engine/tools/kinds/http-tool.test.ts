import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../src/config/errors.js';
import type { HttpSpec } from '../../../../src/engine/revision/types.js';
import { createHttpTool } from '../../../../src/engine/tools/kinds/http-tool.js';
import { makeToolContext } from '../tool-context.js';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

const seen: Seen[] = [];
const server = setupServer(
  http.all('https://shop.test/echo/*', async ({ request }) => {
    seen.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() });
    return HttpResponse.json({ ok: true });
  }),
  http.get('https://shop.test/text', () => HttpResponse.text('plain words')),
  http.get('https://shop.test/json-as-text', () => HttpResponse.text('{"n":1}')),
  http.get('https://shop.test/missing', () => HttpResponse.json({ error: 'no such order' }, { status: 404 })),
  http.get('https://shop.test/broken', () => HttpResponse.text('upstream down', { status: 503 })),
  http.all('https://shop.test/down', () => HttpResponse.error()),
  http.get('https://shop.test/slow', async () => {
    await delay(2_000);
    return HttpResponse.text('late');
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => server.close());

const ctx = makeToolContext();
const make = (spec: HttpSpec) => createHttpTool({ name: 'api', description: 'shop api', http: spec });

describe('http tool', () => {
  it('describes itself from the spec, with default parameters', () => {
    expect(make({ url: 'https://shop.test/x' })).toMatchObject({ name: 'api', kind: 'http', readOnly: false, parameters: { type: 'object' } });
    const readOnly = createHttpTool({ name: 'r', read_only: true, parameters: { type: 'object', properties: {} }, http: { url: 'https://x.test' } });
    expect(readOnly).toMatchObject({ readOnly: true, parameters: { type: 'object', properties: {} } });
  });

  it('templates url (URL-encoded), headers and an object body sent as JSON', async () => {
    const tool = make({
      method: 'post',
      url: 'https://shop.test/echo/orders/{{ args.id }}?q={{ args.q }}',
      headers: { 'x-order': '{{ args.id }}' },
      body: { order: '{{ args.id }}', qty: '{{ args.qty }}', items: '{{ args.items }}', note: 'qty={{ args.qty }}' },
    });
    const outcome = await tool.execute({ id: '12/34', q: 'a b&c=d', qty: 2, items: ['x', 'y'] }, ctx);
    expect(outcome).toMatchObject({ result: { ok: true }, isError: false });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('POST');
    expect(seen[0].url).toBe('https://shop.test/echo/orders/12%2F34?q=a%20b%26c%3Dd');
    expect(seen[0].headers['x-order']).toBe('12/34');
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0].body)).toEqual({ order: '12/34', qty: 2, items: ['x', 'y'], note: 'qty=2' });
  });

  it('sends a whole-template body with its type, and a string body as text', async () => {
    await make({ method: 'PUT', url: 'https://shop.test/echo/a', body: '{{ args.payload }}' }).execute({ payload: { a: [1] } }, ctx);
    await make({ method: 'PUT', url: 'https://shop.test/echo/b', body: 'hello {{ args.who }}', headers: { 'content-type': 'text/plain' } }).execute(
      { who: 'ada' },
      ctx,
    );
    expect(seen.map((s) => s.body)).toEqual(['{"a":[1]}', 'hello ada']);
    expect(seen[1].headers['content-type']).toBe('text/plain');
  });

  it('parses JSON bodies and returns text otherwise', async () => {
    expect((await make({ url: 'https://shop.test/text' }).execute({}, ctx)).result).toBe('plain words');
    expect((await make({ url: 'https://shop.test/json-as-text' }).execute({}, ctx)).result).toEqual({ n: 1 });
  });

  it('makes non-2xx an error outcome carrying status and body', async () => {
    expect(await make({ url: 'https://shop.test/missing' }).execute({}, ctx)).toMatchObject({
      isError: true,
      errorType: 'http_404',
      result: { status: 404, body: { error: 'no such order' } },
    });
    expect(await make({ url: 'https://shop.test/broken' }).execute({}, ctx)).toMatchObject({
      isError: true,
      errorType: 'http_503',
      result: { status: 503, body: 'upstream down' },
    });
  });

  it('makes a network failure an error outcome', async () => {
    const outcome = await make({ url: 'https://shop.test/down' }).execute({}, ctx);
    expect(outcome.isError).toBe(true);
    expect(outcome.errorType).toBe('network');
    expect((outcome.result as { error: string }).error).toMatch(/failed/i);
  });

  it('names the method, the URL with its credentials scrubbed, and the cause of a network failure', async () => {
    const outcome = await make({ method: 'POST', url: 'https://shop.test/down?api_key=sk-live-123456789' }).execute({}, ctx);
    const error = (outcome.result as { error: string }).error;
    expect(error).toMatch(/^api: POST https:\/\/shop\.test\/down\?api_key=\[redacted\] failed: \S/);
    expect(error).not.toContain('sk-live-123456789');
  });

  it('times out after timeout_ms', async () => {
    const outcome = await make({ url: 'https://shop.test/slow', timeout_ms: 50 }).execute({}, ctx);
    expect(outcome).toMatchObject({ isError: true, errorType: 'timeout' });
    expect((outcome.result as { error: string }).error).toContain('50 ms');
  });

  it('throws TEMPLATE_UNDEFINED for a missing argument and INVALID_TOOL_SPEC for a GET body', async () => {
    const missing = await make({ url: 'https://shop.test/echo/{{ args.id }}' })
      .execute({}, ctx)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ToolError);
    expect(missing).toMatchObject({ code: 'TEMPLATE_UNDEFINED', tool: 'api' });
    expect((missing as Error).message).toContain('http.url');
    const getBody = await make({ url: 'https://shop.test/echo/x', body: { a: 1 } })
      .execute({}, ctx)
      .catch((e: unknown) => e);
    expect(getBody).toMatchObject({ code: 'INVALID_TOOL_SPEC' });
    expect(seen).toHaveLength(0);
  });

  it('refuses a header value an argument made unsendable, naming the header, never the value, and sends nothing', async () => {
    const tool = make({ url: 'https://shop.test/echo/x', headers: { 'X-Query': 'q={{ args.q }}' } });
    const error = await tool.execute({ q: 'secret-words\r\nInjected: yes' }, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'INVALID_HEADER', tool: 'api' });
    expect((error as Error).message).toBe(
      'tool api: http.headers.X-Query (filled from args.q) cannot be sent: a header value cannot hold a line break (CR, character 15 of the value): expected one line of text',
    );
    expect((error as Error).message).not.toContain('secret-words');
    expect(seen).toHaveLength(0);
    // An object argument is sent as JSON: beyond Latin-1 it cannot be a header either.
    const arrow = await tool.execute({ q: { dir: '\u2192' } }, ctx).catch((e: unknown) => e);
    expect((arrow as Error).message).toContain('cannot hold U+2192 (character 11 of the value)');
  });

  it('checks a URL that is one whole template: a ".." path or a scheme other than http(s) is refused unsent', async () => {
    const tool = make({ url: '{{ args.target }}' });
    for (const [target, code] of [
      ['https://shop.test/echo/a/../../admin', 'PATH_TRAVERSAL'],
      ['file:///etc/passwd', 'INVALID_URL'],
      ['javascript:alert(1)', 'INVALID_URL'],
      ['http://[not a host/x', 'INVALID_URL'],
    ] as const) {
      const error = await tool.execute({ target }, ctx).catch((e: unknown) => e);
      expect(error, target).toBeInstanceOf(ToolError);
      expect(error, target).toMatchObject({ code, tool: 'api' });
      expect((error as ToolError).message).toContain('tool api http.url');
    }
    expect(seen).toHaveLength(0);
    expect(await tool.execute({ target: 'https://shop.test/echo/ok' }, ctx)).toMatchObject({ isError: false });
    expect(seen.map((s) => s.url)).toEqual(['https://shop.test/echo/ok']);
  });
});

describe('http tool headers that read the environment', () => {
  const envCtx = (env: Record<string, string>) => makeToolContext({ env: { PATH: process.env.PATH, ...env } });

  it('fills {{ env.NAME }} from the run environment beside the arguments; the span records the credential [redacted]', async () => {
    const tool = make({
      url: 'https://shop.test/echo/x',
      headers: { Authorization: 'Bearer {{ env.PLAIN_NAME }}', 'X-Team': '{{ args.team }}@{{ env.TEAM }}' },
    });
    const outcome = await tool.execute({ team: 'core' }, envCtx({ PLAIN_NAME: 'ghp-0123456789abcdef', TEAM: 'platform' }));
    expect(outcome).toMatchObject({ result: { ok: true }, isError: false });
    expect(seen.map((request) => [request.headers.authorization, request.headers['x-team']])).toEqual([['Bearer ghp-0123456789abcdef', 'core@platform']]);
    expect(JSON.parse(String(outcome.spanAttributes?.['agentcheck.http.request.headers']))).toEqual({ Authorization: '[redacted]', 'X-Team': 'core@platform' });
  });

  it('leaves an argument that holds {{ env.NAME }} as text: the model cannot read the environment through it', async () => {
    const tool = make({ url: 'https://shop.test/echo/x', headers: { 'X-Team': '{{ args.team }}' } });
    await tool.execute({ team: '{{ env.PLAIN_NAME }}' }, envCtx({ PLAIN_NAME: 'ghp-0123456789abcdef' }));
    expect(seen[0].headers['x-team']).toBe('{{ env.PLAIN_NAME }}');
  });

  it('cuts the value of a secret variable out of an echoed result and the span, whatever header it fills', async () => {
    server.use(http.get('https://shop.test/mirror', ({ request }) => HttpResponse.json({ got: request.headers.get('x-custom') })));
    const tool = make({ url: 'https://shop.test/mirror', headers: { 'X-Custom': 'id {{ env.SERVICE_TOKEN }}' } });
    const outcome = await tool.execute({}, envCtx({ SERVICE_TOKEN: 'tok-env-secret-98765' }));
    expect(outcome.result).toEqual({ got: 'id [redacted]' });
    expect(JSON.parse(String(outcome.spanAttributes?.['agentcheck.http.request.headers']))).toEqual({ 'X-Custom': 'id [redacted]' });
  });

  it('refuses a variable that is not set, naming the tool, the header and the variable, and sends nothing (never an empty header)', async () => {
    const tool = make({ url: 'https://shop.test/echo/x', headers: { Authorization: 'Bearer {{ env.GITHUB_TOKN }}' } });
    const error = await tool.execute({}, envCtx({ GITHUB_TOKEN: 'ghp-0123456789abcdef' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'TEMPLATE_UNDEFINED', tool: 'api' });
    expect((error as Error).message).toBe(
      'tool api: http.headers.Authorization needs the environment variable GITHUB_TOKN, which is not set; did you mean "GITHUB_TOKEN"?',
    );
    expect(seen).toHaveLength(0);
  });

  it('refuses a variable whose value fetch cannot send, naming the header and the variable, never the value', async () => {
    const tool = make({ url: 'https://shop.test/echo/x', headers: { 'X-Token': '{{ env.SERVICE_TOKEN }}' } });
    const error = await tool.execute({}, envCtx({ SERVICE_TOKEN: 'tok-line-one\ntok-line-two' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_HEADER', tool: 'api' });
    expect((error as Error).message).toContain(
      'tool api: http.headers.X-Token (filled from env.SERVICE_TOKEN) cannot be sent: a header value cannot hold a line break',
    );
    expect((error as Error).message).not.toContain('tok-line');
    expect(seen).toHaveLength(0);
  });
});

describe('http tool secrets in the URL', () => {
  it('cuts the URL password and key-like query values out of a failure that quotes the URL', async () => {
    const outcome = await make({ url: 'https://user:pw-secret-1234@shop.test/echo/x?token=tok-abcdefgh1234&key=kkkkkkkk1234&city=Paris' }).execute({}, ctx);
    expect(outcome.isError).toBe(true);
    const text = JSON.stringify(outcome.result);
    expect(text).toContain('[redacted]');
    for (const secret of ['pw-secret-1234', 'tok-abcdefgh1234', 'kkkkkkkk1234']) expect(text).not.toContain(secret);
  });

  it('cuts them out of a response that echoes the URL', async () => {
    server.use(http.get('https://shop.test/mirror', ({ request }) => HttpResponse.json({ you_asked: request.url })));
    const outcome = await make({ url: 'https://shop.test/mirror?access_token=tok-abcdefgh1234&city=Paris' }).execute({}, ctx);
    expect(outcome.result).toEqual({ you_asked: 'https://shop.test/mirror?access_token=[redacted]&city=Paris' });
  });
});

describe('http tool body', () => {
  it('treats body: null as no body, so a GET with all four keys works', async () => {
    const outcome = await make({ method: 'GET', url: 'https://shop.test/echo/x', headers: {}, body: null }).execute({}, ctx);
    expect(outcome.isError).toBe(false);
    expect(seen[0]).toMatchObject({ method: 'GET', body: '' });
  });
});

describe('http tool urls with | path', () => {
  it('sends an owner/repo value with its "/" kept, other reserved characters encoded', async () => {
    const tool = make({ url: 'https://shop.test/echo/repos/{{ args.repo | path }}/issues?label={{ args.label }}' });
    expect(await tool.execute({ repo: 'octo/hello world', label: 'a/b' }, ctx)).toMatchObject({ result: { ok: true }, isError: false });
    expect(seen[0].url).toBe('https://shop.test/echo/repos/octo/hello%20world/issues?label=a%2Fb');
  });

  it('refuses a value with a ".." segment before any request is sent (tool error path_traversal)', async () => {
    const error = await make({ url: 'https://shop.test/echo/repos/{{ args.repo | path }}' })
      .execute({ repo: 'octo/../../admin' }, ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'PATH_TRAVERSAL', tool: 'api' });
    expect(seen).toHaveLength(0);
  });
});

describe('the request an http tool sent, for its span', () => {
  it('records method, URL, headers and body with secrets scrubbed, and the response status', async () => {
    const tool = make({
      method: 'POST',
      url: 'https://shop.test/echo/r?api_key=sk-live-abcdef123&page=2',
      headers: { authorization: 'Bearer tok-1234567890', 'x-trace': 'echo tok-1234567890', 'x-short': 'abc' },
      body: { note: 'token tok-1234567890 here', n: '{{ args.n }}' },
    });
    const outcome = await tool.execute({ n: 3 }, ctx);
    expect(outcome.spanAttributes).toEqual({
      'http.request.method': 'POST',
      'url.full': 'https://shop.test/echo/r?api_key=[redacted]&page=2',
      'agentcheck.http.request.headers': JSON.stringify({
        authorization: '[redacted]',
        'x-trace': 'echo [redacted]',
        'x-short': 'abc',
        'content-type': 'application/json',
      }),
      'agentcheck.http.request.body': '{"note":"token [redacted] here","n":3}',
      'http.response.status_code': 200,
    });
  });

  it('records the request of a failed call too, without a status when no response came', async () => {
    const outcome = await make({ url: 'https://shop.test/down' }).execute({}, ctx);
    expect(outcome.spanAttributes).toEqual({ 'http.request.method': 'GET', 'url.full': 'https://shop.test/down', 'agentcheck.http.request.headers': '{}' });
    const missing = await make({ url: 'https://shop.test/missing' }).execute({}, ctx);
    expect(missing.spanAttributes?.['http.response.status_code']).toBe(404);
  });
});
