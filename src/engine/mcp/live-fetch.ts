/**
 * `fetch` as it was when the engine loaded. An MCP session over Streamable HTTP is the agent's own
 * connection, not a request to mock or record: it never goes through the engine's fetch (scenario
 * mocks, cassettes), and a test's msw installed later does not see it either, since msw's
 * passthrough stalls on the 202 answers the session's notifications get. Imported statically by
 * mcp-toolset.ts, so it is taken early.
 */
export const liveFetch: typeof fetch = globalThis.fetch.bind(globalThis);
