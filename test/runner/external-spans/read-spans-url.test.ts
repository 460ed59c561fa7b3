import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { RunError } from '../../../src/config/errors.js';
import { readSpansUrl } from '../../../src/runner/external-spans/read-spans-url.js';
import { startLocalServer, type LocalServer } from '../../helpers/openai-server.js';

const EXPORT = readFileSync(new URL('../../../fixtures/otlp/ai-sdk-workspace-agent.otlp.json', import.meta.url), 'utf8');
let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("reading an http engine's spans URL", () => {
  it('GETs the URL with {trace_id} replaced and the headers, and decodes the OTLP JSON body', async () => {
    server = await startLocalServer({ traces: (_request, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(EXPORT) });
    const spans = await readSpansUrl(`${server.origin}/traces/{trace_id}?format=otlp`, 'abc 123', () => ({ authorization: 'Bearer t0ken' }));
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/traces/abc%20123?format=otlp', headers: { authorization: 'Bearer t0ken' } });
    expect(spans.map((span) => span.name)).toContain('ai.toolCall');
    expect(spans).toHaveLength(6);
  });

  it('says what went wrong: a missing trace id, an HTTP error, a body that is not an OTLP export', async () => {
    server = await startLocalServer({
      down: (_request, res) => res.writeHead(503).end('busy'),
      html: (_request, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
      other: (_request, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"resourceSpans": {"spans": []}}'),
      nope: (_request, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"nope": 1}'),
      moved: (request, res) => res.writeHead(307, { location: `/traces/${request.url.split('/')[2]}?key=s3cret` }).end(),
      traces: (_request, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(EXPORT),
    });
    // Every way it fails is SPANS_URL_FAILED (docs/external-agents.md), the one type the run keeps its record under.
    await expect(readSpansUrl(`${server.origin}/nope/t`, 't')).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: expect.stringContaining('not an OTLP JSON trace export: expected {"resourceSpans": [...]}'),
    });
    // fetch's own message quotes the URL it refused: the credentials stay out of the error.
    const withCredentials = readSpansUrl(`http://user:pw123456789@127.0.0.1:9/traces/{trace_id}?token=spansecret999`, 't');
    await expect(withCredentials).rejects.toMatchObject({ code: 'SPANS_URL_FAILED' });
    const message = String(await withCredentials.catch((error: Error) => error.message));
    expect(message).not.toContain('pw123456789');
    expect(message).not.toContain('spansecret999');
    await expect(readSpansUrl(`${server.origin}/down/{trace_id}`, undefined)).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: expect.stringContaining('"trace_id"'),
    });
    await expect(readSpansUrl(`${server.origin}/down/{trace_id}?key=s3cret`, 't1')).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: `reading spans from ${server.origin}/down/t1 failed: HTTP 503`,
    });
    // A redirect is not followed: the export it points at is never read.
    await expect(readSpansUrl(`${server.origin}/moved/{trace_id}`, 't2')).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: `reading spans from ${server.origin}/moved/t2 failed: HTTP 307 (a redirect to ${server.origin}/traces/t2, not followed)`,
    });
    expect(server.of('traces')).toHaveLength(0);
    // Headers are filled when the URL is read: one that cannot be is this read's failure, not a crash.
    const unfilled = () => {
      throw new RunError('TEMPLATE_UNDEFINED', 'external.http.headers.Authorization needs the environment variable SVC_TOKEN, which is not set');
    };
    await expect(readSpansUrl(`${server.origin}/traces/{trace_id}`, 't3', unfilled)).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: `reading spans from ${server.origin}/traces/t3 failed: external.http.headers.Authorization needs the environment variable SVC_TOKEN, which is not set`,
    });
    await expect(readSpansUrl(`${server.origin}/html/t`, 't')).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: expect.stringContaining('not JSON'),
    });
    await expect(readSpansUrl(`${server.origin}/other/t`, 't')).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: expect.stringContaining('resourceSpans: expected an array'),
    });
  });
});
