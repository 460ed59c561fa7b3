import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
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
    const spans = await readSpansUrl(`${server.origin}/traces/{trace_id}?format=otlp`, 'abc 123', { authorization: 'Bearer t0ken' });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/traces/abc%20123?format=otlp', headers: { authorization: 'Bearer t0ken' } });
    expect(spans.map((span) => span.name)).toContain('ai.toolCall');
    expect(spans).toHaveLength(6);
  });

  it('says what went wrong: a missing trace id, an HTTP error, a body that is not an OTLP export', async () => {
    server = await startLocalServer({
      down: (_request, res) => res.writeHead(503).end('busy'),
      html: (_request, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
      other: (_request, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"resourceSpans": {"spans": []}}'),
    });
    await expect(readSpansUrl(`${server.origin}/down/{trace_id}`, undefined)).rejects.toMatchObject({
      code: 'SPANS_URL_NO_TRACE_ID',
      message: expect.stringContaining('"trace_id"'),
    });
    await expect(readSpansUrl(`${server.origin}/down/{trace_id}?key=s3cret`, 't1')).rejects.toMatchObject({
      code: 'SPANS_URL_FAILED',
      message: `reading spans from ${server.origin}/down/t1 failed: HTTP 503`,
    });
    await expect(readSpansUrl(`${server.origin}/html/t`, 't')).rejects.toMatchObject({
      code: 'SPANS_URL_INVALID',
      message: expect.stringContaining('not JSON'),
    });
    await expect(readSpansUrl(`${server.origin}/other/t`, 't')).rejects.toMatchObject({
      code: 'SPANS_URL_INVALID',
      message: expect.stringContaining('resourceSpans: expected an array'),
    });
  });
});
