/**
 * The fetch of an MCP session over Streamable HTTP: the agent's own connection, not a request to
 * mock or record. It is `fetch` as it was when the engine loaded (imported statically by
 * mcp-toolset.ts, so normally before any run installs mocks), and each request is marked so that
 * the scenario mocks' fetch wrapper passes it on even if that wrapper is the fetch taken here (a
 * process that installed mocks before it loaded this module).
 */
const startupFetch: typeof fetch = globalThis.fetch.bind(globalThis);

const unmocked = new WeakSet<RequestInit>();

/** A copy of `init` marked as a request scenario mocks and cassettes leave alone. */
export function unmockedInit(init: RequestInit | undefined): RequestInit {
  const marked = { ...init };
  unmocked.add(marked);
  return marked;
}

/** True when `init` was marked by unmockedInit. */
export function isUnmockedRequest(init: RequestInit | undefined): boolean {
  return init !== undefined && unmocked.has(init);
}

/** fetch for an MCP session's own requests. */
export const liveFetch: typeof fetch = (input, init) => startupFetch(input, unmockedInit(init));
