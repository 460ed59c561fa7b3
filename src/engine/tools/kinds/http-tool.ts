import { engineFetch } from '../../engine-fetch.js';
import { describeFetchError } from '../../fetch-error.js';
import { ToolError } from '../../../config/errors.js';
import { scrubSecretValues, secretHeaderValues, secretUrlValues } from '../../../config/redact.js';
import type { HttpSpec, ToolSpec } from '../../revision/types.js';
import type { Tool, ToolContext, ToolOutcome } from '../tool.js';
import { templateFromArgs, urlFromArgs } from './args-template.js';
import { httpRequestAttributes, type SentRequest } from './http-request-attributes.js';
import { secretHeaderVariables, toolHeaders } from './http-tool-headers.js';
import { toolHeader } from './tool-header.js';

const DEFAULT_TIMEOUT_MS = 30_000;

/** A request after templating, ready for fetch. */
type PreparedRequest = SentRequest;

/**
 * An `http` tool (docs/formats.md, Tools): one fetch per call with `{{ args.x }}` templates in url,
 * headers and body, and `{{ env.NAME }}` in header values. Non-2xx, network failures and
 * timeouts are error outcomes, not throws.
 */
export function createHttpTool(spec: ToolSpec): Tool {
  const http = spec.http;
  if (!http) throw new ToolError(spec.name, `tool ${spec.name} has no "http" section`, 'INVALID_TOOL_SPEC');
  return {
    ...toolHeader(spec, 'http'),
    execute: async (args, ctx) => {
      const request = prepare(spec.name, http, args, ctx.env);
      // A server may echo a credential back (a 401 quoting the token, an echo endpoint), and a
      // failure message may quote the URL: the result reaches the model, spans and reports, so
      // secret header values, the secret variables the headers read and the URL's credentials
      // are cut out of it.
      // The request as sent is recorded on the span (secrets scrubbed), so checks can assert it.
      const { status, ...outcome } = await send(spec.name, http, request, ctx);
      const secrets = [...secretHeaderValues(request.headers), ...secretHeaderVariables(http.headers ?? {}, ctx.env), ...secretUrlValues(request.url)];
      return { ...outcome, result: scrubSecretValues(outcome.result, secrets), spanAttributes: httpRequestAttributes(request, secrets, status) };
    },
  };
}

function prepare(name: string, http: HttpSpec, args: Record<string, unknown>, env: ToolContext['env']): PreparedRequest {
  const method = (http.method ?? 'GET').toUpperCase();
  // Values embedded in the URL are URL-encoded, so `a b&c=d` cannot add a query parameter; a
  // filled URL that is not http(s) or would change path is refused here, before any fetch.
  const url = urlFromArgs(name, http.url, args);
  const headers = toolHeaders(name, http.headers ?? {}, args, env);
  // `body: null` is no body, as when the key is left out.
  if (http.body === undefined || http.body === null) return { method, url, headers };
  if (method === 'GET' || method === 'HEAD') {
    throw new ToolError(name, `tool ${name}: a ${method} request cannot have a body; use POST or drop "body"`, 'INVALID_TOOL_SPEC');
  }
  const body = templateFromArgs(name, http.body, args, 'http.body');
  if (body === undefined) return { method, url, headers };
  if (typeof body === 'string') return { method, url, headers, body };
  if (!Object.keys(headers).some((key) => key.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  return { method, url, headers, body: JSON.stringify(body) };
}

/** The outcome of one fetch, with the response status when a response arrived. */
type Sent = ToolOutcome & { status?: number };

async function send(name: string, http: HttpSpec, request: PreparedRequest, ctx: ToolContext): Promise<Sent> {
  const timeoutMs = http.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([timeout, ctx.signal]) : timeout;
  try {
    // Through the engine's fetch: scenario mocks and cassettes answer it inside their runs.
    const response = await engineFetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal });
    const body = parseBody(await response.text());
    if (!response.ok) return { result: { status: response.status, body }, isError: true, errorType: `http_${response.status}`, status: response.status };
    return { result: body, isError: false, status: response.status };
  } catch (error) {
    if (timeout.aborted) {
      return { result: { error: `${name}: ${request.method} ${request.url} timed out after ${timeoutMs} ms` }, isError: true, errorType: 'timeout' };
    }
    if (ctx.signal?.aborted) return { result: { error: `${name}: request canceled` }, isError: true, errorType: 'canceled' };
    // Method, URL and cause say which request failed and why; the caller scrubs the URL's credentials.
    return { result: { error: `${name}: ${request.method} ${request.url} failed: ${describeFetchError(error)}` }, isError: true, errorType: 'network' };
  }
}

/**
 * The body parsed as JSON when it parses (whatever the content-type says: servers label JSON
 * text/plain often enough), otherwise the text itself; a JSON content-type with a broken body
 * therefore still reaches the model as text.
 */
function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
