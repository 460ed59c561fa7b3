/**
 * `fetch` as it was when the engine loaded. Scenario mocks (msw, installed later and only by
 * the runner) replace `globalThis.fetch`; an MCP session over Streamable HTTP is the agent's
 * own connection, not a request to mock or record, and msw's passthrough stalls on the 202
 * answers the session's notifications get. Imported statically by mcp-toolset.ts, so it is
 * taken before any run installs mocks.
 */
export const liveFetch: typeof fetch = globalThis.fetch.bind(globalThis);
