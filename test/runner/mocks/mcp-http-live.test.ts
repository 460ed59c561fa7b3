import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTestRun } from '../../../src/runner/test-run.js';
import { startHttpMcpServer, type HttpMcpServer } from '../../engine/mcp/http-mcp-server.js';

let server: HttpMcpServer;
beforeAll(async () => {
  server = await startHttpMcpServer();
});
afterAll(async () => server.close());

describe('scenario mocks and MCP servers over HTTP', () => {
  it("an agent's MCP server url goes out live, never to the mocks or the unmatched list", async () => {
    const record = await executeTestRun({
      agent: { id: 'web', agent: { name: 'Web', llm: { provider: 'scripted', model: 's' }, mcps: [{ name: 'web', url: server.url }] } },
      inputs: { messages: [{ role: 'user', content: 'echo' }] },
      mocks: { http: [] },
      expectations: { terminal_tool: 'echo' },
      script: [{ tool_calls: [{ name: 'mcp__web__echo', args: { text: 'live' } }] }, { text: 'done' }],
    });
    await record.workspace.dispose();
    expect(record.unmatched).toEqual([]);
    expect(record.result.verdict).toBe('pass');
    expect(record.evidence.calls[0].result).toBe('echo: live');
  });
});
