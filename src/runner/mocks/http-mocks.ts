import { AsyncLocalStorage } from 'node:async_hooks';
import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CassetteSession } from '../cassettes/cassette-session.js';
import { setRequestInterceptor } from '../../engine/engine-fetch.js';
import { REPLAY_PLACEHOLDER_KEY } from '../offline-env.js';
import { encodingHint } from './encoding-hint.js';
import { describeUnmatched } from './unmatched-requests.js';
import { interceptingFetch } from './fetch-interception.js';
import { bodyMismatch } from './mock-match.js';
import { routeMatches } from './mock-route.js';

/** One answer of a mock. */
export interface HttpMockResponse {
  status?: number;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  delay_ms?: number;
}

/** One scenario HTTP mock (`mocks.http`, docs/formats.md, Scenario): one answer, or a sequence in `responses`. */
export interface HttpMock extends HttpMockResponse {
  method?: string;
  /** Exact URL, or a pattern with `*` wildcards. */
  url: string;
  /** What the request body must hold: `json` (subset of the parsed body), `body` (the text). */
  match?: { json?: unknown; body?: unknown };
  /** Answers in order, one per matching request; the last repeats once they are used up. */
  responses?: HttpMockResponse[];
}

/** A request no mock answered. */
export interface UnmatchedRequest {
  /** `METHOD URL`. */
  request: string;
  /** Why a mock that looks right did not match (only the encoding differs), or "". */
  hint: string;
}

/** The mocks of one run, plus what it saw that no mock answered. */
export interface MockScope {
  mocks: readonly HttpMock[];
  /** Origins that pass through unmocked (a real model provider's endpoint). */
  passthroughOrigins: readonly string[];
  /** Each request no mock matched. */
  unmatched: UnmatchedRequest[];
  /** The run's cassette (record / replay / auto): it answers every request no mock matched. */
  cassette?: CassetteSession;
  /** How many requests each mock (by index) has answered: where its `responses` sequence stands. */
  served?: Map<number, number>;
}

const scopes = new AsyncLocalStorage<MockScope>();

let FetchResponse: FetchResponseClass | undefined;

/**
 * Runs `fn` with `scope`'s mocks answering its HTTP requests. One interceptor serves the whole
 * process (the engine sends a run's requests through it: engine/engine-fetch.ts);
 * AsyncLocalStorage picks the scope of the request's own run, so concurrent scenarios never see
 * each other's mocks.
 */
export async function withHttpMocks<T>(scope: MockScope, fn: () => Promise<T>): Promise<T> {
  if (!FetchResponse) {
    // Loaded lazily: only runs with mocks or cassettes need it.
    FetchResponse = (await import('@mswjs/interceptors')).FetchResponse;
    // What the mocks leave alone goes out through globalThis.fetch as it is at the time.
    const live: typeof fetch = (input, init) => globalThis.fetch(input, init);
    setRequestInterceptor({ intercepts: () => scopes.getStore() !== undefined, fetch: interceptingFetch(live, answerRequest, FetchResponse) });
  }
  return scopes.run(scope, fn);
}

/** The answer to a run's request from its scope, or undefined to let it go out. */
async function answerRequest(request: Request, live: (request: Request) => Promise<Response>, firstUrl: string): Promise<Response | undefined> {
  const scope = scopes.getStore();
  if (!scope) return undefined;
  const found = await findMock(scope, request);
  if (!found.mock) {
    // A request carrying the placeholder key (filled in because mocks answer the provider) never
    // goes out, neither live nor to be recorded: the real endpoint would only refuse it, and the
    // mock it missed says why. A replay may answer it (it sends nothing).
    const placeholder = carriesPlaceholderKey(request);
    // Scenario mocks win; everything else a cassette run sends is recorded or replayed (for real
    // with a copy: the cassette reads the request it keeps).
    if (scope.cassette && (!placeholder || scope.cassette.run.mode === 'replay')) {
      return scope.cassette.respond(request, (original) => live(original.clone()));
    }
    const provider = scope.passthroughOrigins.includes(new URL(request.url).origin);
    if (provider && !placeholder) return undefined;
    // A model or grader call that a mock redirected elsewhere is still that call.
    const providerCall = provider || scope.passthroughOrigins.includes(new URL(firstUrl).origin);
    const unmatched = { request: `${request.method} ${request.url}`, hint: found.hint || encodingHint(scope.mocks, request.method, request.url) };
    scope.unmatched.push(unmatched);
    const why = describeUnmatched([unmatched]);
    // A model or grader call gets an answer it does not retry (the miss is the same each time);
    // a tool's request fails as a network error, which the sender says with the reason
    // (`fetch failed (no mock matched GET ...)`), credentials left out.
    if (providerCall) return Response.json({ error: { type: 'unmatched_request', message: `agentcheck mocks: ${why}` } }, { status: 404 });
    return Object.assign(Response.error(), { cause: new Error(why) });
  }
  const answer = nextResponse(scope, found.mock, found.index);
  // The wait ends with the request (a tool's timeout_ms, a run cut off at its limit): no timer
  // outlives the run, and the sender gets its abort error.
  if (answer.delay_ms && !(await waited(answer.delay_ms, request.signal))) return Response.error();
  return mockResponse(answer);
}

type FetchResponseClass = typeof import('@mswjs/interceptors').FetchResponse;

/** True when the request's headers or URL hold the key offlineEnv puts in for a missing one. */
function carriesPlaceholderKey(request: Request): boolean {
  if (request.url.includes(REPLAY_PLACEHOLDER_KEY)) return true;
  for (const [, value] of request.headers) if (value.includes(REPLAY_PLACEHOLDER_KEY)) return true;
  return false;
}

/** Waits `ms`; false when `signal` aborts first (the request was given up). */
async function waited(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    throw error;
  }
}

/**
 * The first mock whose method, URL and `match` fit the request; when none does but a mock's
 * route fits and only its `match` fails, a hint saying why (for the unmatched error).
 */
async function findMock(scope: MockScope, request: Request): Promise<{ mock?: HttpMock; index: number; hint: string }> {
  let body: string | undefined;
  let hint = '';
  for (const [index, mock] of scope.mocks.entries()) {
    if (!routeMatches(mock, request.method, request.url)) continue;
    if (!mock.match) return { mock, index, hint };
    // Read from a clone: a cassette may still need the body of a request no mock answers.
    body ??= await request.clone().text();
    const why = bodyMismatch(mock, body);
    if (!why) return { mock, index, hint };
    hint ||= ` (mocks.http[${index}] has this route, but its match ${why})`;
  }
  // A mock of this URL for another method (the request is unmatched, so only on this rare path).
  if (!hint) {
    const index = scope.mocks.findIndex((mock) => mock.method && routeMatches({ url: mock.url }, request.method, request.url));
    if (index !== -1) hint = ` (mocks.http[${index}] has this URL, but for ${scope.mocks[index].method?.toUpperCase()}, not ${request.method})`;
  }
  return { index: -1, hint };
}

/** The mock's answer to this request: its own keys, or the next of its `responses` (the last repeats). */
function nextResponse(scope: MockScope, mock: HttpMock, index: number): HttpMockResponse {
  if (!mock.responses) return mock;
  scope.served ??= new Map();
  const count = scope.served.get(index) ?? 0;
  scope.served.set(index, count + 1);
  return mock.responses[Math.min(count, mock.responses.length - 1)];
}

/**
 * A mock's answer as a Response, as msw's HttpResponse builds it: any status 100-599 (FetchResponse
 * allows those a plain Response refuses, such as 101 or a 204 with a body), the status's standard
 * text, and for `json` a JSON body with Content-Type and Content-Length unless the mock sets them.
 */
function mockResponse(answer: HttpMockResponse): Response {
  const status = answer.status ?? 200;
  const headers = new Headers(answer.headers);
  let body = answer.body ?? '';
  if (answer.json !== undefined) {
    body = JSON.stringify(answer.json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    if (!headers.has('content-length')) headers.set('content-length', String(Buffer.byteLength(body)));
  }
  return new FetchResponse!(body, { status, statusText: STATUS_CODES[status] ?? '', headers });
}
