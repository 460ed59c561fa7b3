/**
 * The fetch that scenario mocks and cassettes answer through (docs/cassettes.md): a wrapper of
 * the fetch before it, which asks an answerer about each request sent inside a run, and leaves
 * every other request to the fetch it wraps.
 *
 * It is a plain wrapper, not msw: msw's interceptors share one instance per process through a
 * global registry, so a user's own msw server closing (agentcheck/vitest runs in the user's test
 * process) took the mocks down with it, and the run's requests went out live.
 */

/** What a run's mocks or cassette answer, or undefined to let the request go out; `live` sends it for real. */
export type RequestAnswerer = (request: Request, live: (request: Request) => Promise<Response>) => Promise<Response | undefined>;

/** How the wrapper tells a run's requests from the rest of the process's. */
export interface RunContext {
  /** True for a request (its fetch `init`) sent inside a run, which the answerer answers. */
  inRun(init: RequestInit | undefined): boolean;
  /** Calls `fn` outside any run, so a wrapper further down the chain passes the request on. */
  outside<T>(fn: () => T): T;
}

/** A Response class that takes any status and a `url` (msw's FetchResponse). */
export interface ResponseClass {
  new (body: ConstructorParameters<typeof Response>[0], init: ResponseInit & { url?: string }): Response;
}

// What fetch does with a redirect it follows (the Fetch standard's "HTTP-redirect fetch").
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/** A fetch that sends each request of a run to `answer` first, and the rest to `next`. */
export function interceptingFetch(next: typeof fetch, answer: RequestAnswerer, context: RunContext, FetchResponse: ResponseClass): typeof fetch {
  const live = (request: Request) => context.outside(() => next(request));
  const intercepting = async (input: string | URL | Request, init?: RequestInit, redirects = 0): Promise<Response> => {
    if (!context.inRun(init)) return next(input, init);
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    // A body the answer reads (a mock's `match`, a cassette's key) stays readable for a redirect.
    const resend = request.clone();
    const answered = await answer(request, live);
    if (answered === undefined) return live(resend);
    // A request given up while its answer waited fails as fetch fails it: with the abort reason.
    request.signal.throwIfAborted();
    if (answered.type === 'error') throw networkError(answered);
    const location = answered.headers.get('location');
    if (REDIRECT_STATUSES.has(answered.status) && location !== null && request.redirect !== 'manual') {
      if (request.redirect === 'error') throw networkError('unexpected redirect');
      if (redirects >= MAX_REDIRECTS) throw networkError('redirect count exceeded');
      return intercepting(new URL(location, request.url), redirectInit(resend, answered.status), redirects + 1);
    }
    return new FetchResponse(answered.body, { url: request.url, status: answered.status, statusText: answered.statusText, headers: answered.headers });
  };
  return (input, init) => intercepting(input, init);
}

/** fetch's own failure: "Failed to fetch", the reason in `cause` (an error Response may carry one of its own). */
function networkError(cause: unknown): TypeError {
  return Object.assign(new TypeError('Failed to fetch'), { cause });
}

/** The next request of a redirect: 303 (and 301/302 after a POST) turn into a GET without a body. */
function redirectInit(request: Request, status: number): RequestInit {
  const toGet = status === 303 ? request.method !== 'HEAD' : (status === 301 || status === 302) && request.method === 'POST';
  const headers = new Headers(request.headers);
  if (toGet) for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(name);
  return {
    method: toGet ? 'GET' : request.method,
    headers,
    body: toGet ? null : request.body,
    signal: request.signal,
    redirect: request.redirect,
    ...(toGet || request.body === null ? {} : { duplex: 'half' }),
  } as RequestInit;
}
