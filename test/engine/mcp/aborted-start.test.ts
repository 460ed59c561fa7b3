import { afterEach, describe, expect, it } from 'vitest';
import { testRun } from '../../../src/runner/test-run.js';
import { mcpBuild, nodeArgv, STUB_SERVER } from './mcp-helpers.js';

// A run aborted before its MCP servers started (a client's cancel that arrives with the request,
// an AbortSignal already aborted) cuts their starts short; the rejection of those starts must be
// handled, or it ends the process (the MCP server, a vitest run) after the result came back.
describe('a run aborted before its MCP servers started', () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', record);
    unhandled.length = 0;
  });

  it('gives its result and leaves no unhandled rejection behind', async () => {
    process.on('unhandledRejection', record);
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER) }]);
    const result = await testRun({
      agent: revision,
      inputs: { messages: [{ role: 'user', content: 'x' }] },
      script: [{ text: 'a' }],
      signal: AbortSignal.abort(),
    });
    expect(result.verdict).toBe('failed');
    // Node reports a rejection left unhandled once the microtasks of the turn that settled it are done.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});
