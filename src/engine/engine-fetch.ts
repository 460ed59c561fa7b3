/**
 * The fetch of the requests a run sends as its own: model and grader calls (also those an external
 * agent makes through the model bridge) and `http` tools. A runner may put a request interceptor
 * in front of it (scenario mocks and cassettes, docs/cassettes.md); every other request goes to
 * globalThis.fetch, looked up per call. agentcheck never replaces globalThis.fetch itself, so a
 * user's own msw server or fetch stub in the same process (agentcheck/vitest) and the mocks of a
 * run never get in each other's way, whichever starts or stops first.
 */

/** What answers the requests of the runs it intercepts before they go out. */
export interface RequestInterceptor {
  /** True for a request sent from inside a run whose requests it answers. */
  intercepts(): boolean;
  /** Answers one such request (or sends it on). */
  fetch: typeof fetch;
}

let interceptor: RequestInterceptor | undefined;

/** Puts `next` in front of the engine's requests (one per process: the runner's mocks). */
export function setRequestInterceptor(next: RequestInterceptor): void {
  interceptor = next;
}

/** True when a request sent now would go to the interceptor (a run with mocks or a cassette). */
export function requestIntercepted(): boolean {
  return interceptor?.intercepts() ?? false;
}

/** fetch for the engine's own requests: through the interceptor inside an intercepted run, else globalThis.fetch. */
export function engineFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  return interceptor?.intercepts() ? interceptor.fetch(input, init) : globalThis.fetch(input, init);
}
