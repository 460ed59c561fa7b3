import { AsyncLocalStorage } from 'node:async_hooks';
import { wildcardMatch } from '../../config/wildcard-match.js';
import type { CassetteSession } from '../cassettes/cassette-session.js';
import { encodingHint } from './encoding-hint.js';

/** One scenario HTTP mock (`mocks.http`, docs/formats.md, Scenario). */
export interface HttpMock {
  method?: string;
  /** Exact URL, or a pattern with `*` wildcards. */
  url: string;
  status?: number;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  delay_ms?: number;
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
}

const scopes = new AsyncLocalStorage<MockScope>();
let installed: Promise<void> | undefined;

/**
 * Runs `fn` with `scope`'s mocks answering its HTTP requests. One msw server serves the whole
 * process; AsyncLocalStorage picks the scope of the request's own run, so concurrent
 * scenarios never see each other's mocks.
 */
export async function withHttpMocks<T>(scope: MockScope, fn: () => Promise<T>): Promise<T> {
  await installInterceptor();
  return scopes.run(scope, fn);
}

/** Installs the process-wide interceptor once (lazily: msw is only loaded when mocks or cassettes are used). */
function installInterceptor(): Promise<void> {
  installed ??= (async () => {
    const [{ setupServer }, { http, HttpResponse, passthrough, delay, bypass }] = await Promise.all([import('msw/node'), import('msw')]);
    // bypass() marks the request so the patched fetch sends it for real instead of back here.
    const live = (request: Request) => globalThis.fetch(bypass(request));
    const server = setupServer(
      http.all('*', async ({ request }) => {
        const scope = scopes.getStore();
        if (!scope) return passthrough();
        const mock = scope.mocks.find((candidate) => matches(candidate, request.method, request.url));
        if (!mock) {
          // Scenario mocks win; everything else a cassette run sends is recorded or replayed.
          if (scope.cassette) return scope.cassette.respond(request, live);
          if (scope.passthroughOrigins.includes(new URL(request.url).origin)) return passthrough();
          scope.unmatched.push({ request: `${request.method} ${request.url}`, hint: encodingHint(scope.mocks, request.method, request.url) });
          return HttpResponse.error();
        }
        if (mock.delay_ms) await delay(mock.delay_ms);
        const init = { status: mock.status ?? 200, headers: mock.headers };
        if (mock.json !== undefined) return HttpResponse.json(mock.json as never, init);
        return new HttpResponse(mock.body ?? '', init);
      }),
    );
    server.listen({ onUnhandledRequest: 'bypass' });
  })();
  return installed;
}

function matches(mock: HttpMock, method: string, url: string): boolean {
  if (mock.method && mock.method.toUpperCase() !== method.toUpperCase()) return false;
  // A hand-written matcher, not a regex: `*-*-*` against a long URL must not backtrack.
  return mock.url.includes('*') ? wildcardMatch(mock.url, url) : mock.url === url;
}
