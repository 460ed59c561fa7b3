/**
 * The fetch that answers a run's requests from its scenario mocks and cassette (docs/cassettes.md):
 * it asks an answerer about each request, and sends on the ones it leaves alone. The engine sends
 * a run's own requests through it (engine/engine-fetch.ts); globalThis.fetch is never replaced.
 */

/**
 * What a run's mocks or cassette answer, or undefined to let the request go out; `live` sends it
 * for real; `firstUrl` is the URL the caller asked for (another when the request follows a redirect).
 */
export type RequestAnswerer = (request: Request, live: (request: Request) => Promise<Response>, firstUrl: string) => Promise<Response | undefined>;

/** A Response class that takes any status and a `url` (msw's FetchResponse). */
export interface ResponseClass {
  new (body: ConstructorParameters<typeof Response>[0], init: ResponseInit & { url?: string }): Response;
}

// What fetch does with a redirect it follows (the Fetch standard's "HTTP-redirect fetch").
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/** A fetch that sends each request to `answer` first, and what it leaves alone to `next`. */
export function interceptingFetch(next: typeof fetch, answer: RequestAnswerer, FetchResponse: ResponseClass): typeof fetch {
  const intercepting = async (input: string | URL | Request, init?: RequestInit, redirects = 0, first?: string): Promise<Response> => {
    const request = new Request(input, init);
    const firstUrl = first ?? request.url;
    request.signal.throwIfAborted();
    // A body the answer reads (a mock's `match`, a cassette's key) stays readable for a redirect.
    const resend = request.clone();
    const answered = await answer(request, (live) => next(live), firstUrl);
    if (answered === undefined) return next(resend);
    // A request given up while its answer waited fails as fetch fails it: with the abort reason.
    request.signal.throwIfAborted();
    if (answered.type === 'error') throw networkError(answered);
    const location = answered.headers.get('location');
    if (REDIRECT_STATUSES.has(answered.status) && location !== null && request.redirect !== 'manual') {
      if (request.redirect === 'error') throw networkError(new Error('unexpected redirect'));
      if (redirects >= MAX_REDIRECTS) throw networkError(new Error('redirect count exceeded'));
      const target = new URL(location, request.url);
      return intercepting(target, redirectInit(resend, answered.status, target.origin !== new URL(request.url).origin), redirects + 1, firstUrl);
    }
    // As fetch: the answer to a HEAD request has no body, whatever the mock holds.
    const body = request.method === 'HEAD' ? null : answered.body;
    return new FetchResponse(body, { url: request.url, status: answered.status, statusText: answered.statusText, headers: answered.headers });
  };
  return (input, init) => intercepting(input, init);
}

/**
 * A failure as fetch reports it: "fetch failed", the reason in `cause` (so messages read
 * `fetch failed (redirect count exceeded)` as without mocks); an error Response from the answer
 * may carry a reason of its own (a cassette's failed live call).
 */
function networkError(cause: unknown): TypeError {
  const reason = cause instanceof Response ? (cause as { cause?: unknown }).cause : cause;
  return reason === undefined ? new TypeError('fetch failed') : new TypeError('fetch failed', { cause: reason });
}

/**
 * The next request of a redirect: 303 (and 301/302 after a POST) turn into a GET without a body;
 * to another origin, the credentials stay behind (fetch drops Authorization there, and a cookie
 * header belongs to its origin).
 */
function redirectInit(request: Request, status: number, crossOrigin: boolean): RequestInit {
  const toGet = status === 303 ? request.method !== 'HEAD' : (status === 301 || status === 302) && request.method === 'POST';
  const headers = new Headers(request.headers);
  if (toGet) for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(name);
  if (crossOrigin) for (const name of ['authorization', 'proxy-authorization', 'cookie']) headers.delete(name);
  return {
    method: toGet ? 'GET' : request.method,
    headers,
    body: toGet ? null : request.body,
    signal: request.signal,
    redirect: request.redirect,
    ...(toGet || request.body === null ? {} : { duplex: 'half' }),
  } as RequestInit;
}
