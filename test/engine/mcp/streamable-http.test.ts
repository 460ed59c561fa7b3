import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServerPool } from '../../../src/engine/mcp/mcp-server-pool.js';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { startHttpMcpServer, type HttpMcpServer } from './http-mcp-server.js';
import { mcpBuild } from './mcp-helpers.js';

const TOKEN = 'web-token-0123456789';
const env = { PATH: process.env.PATH, WEB_MCP_TOKEN: TOKEN };
const call = (tool: string, args: Record<string, unknown> = {}) => ({ tool_calls: [{ name: `mcp__web__${tool}`, args }] });

let server: HttpMcpServer;
beforeAll(async () => {
  server = await startHttpMcpServer(TOKEN);
});
afterAll(async () => server.close());

const webBuild = (extra: Record<string, unknown> = {}) =>
  mcpBuild([{ name: 'web', url: server.url, headers: { Authorization: 'Bearer {{ env.WEB_MCP_TOKEN }}' }, ...extra }], {
    permissions: { mode: 'allow_reads' },
  });

describe('agent.mcps servers over Streamable HTTP', () => {
  it('lists and calls tools with the token from the environment; errors and permissions work as for stdio', async () => {
    const { turn, spans } = await runScripted(webBuild(), [call('echo', { text: 'hi' }), call('fail'), { text: 'done' }], {
      env,
      approvals: { default: 'approve' },
    });
    expect(turn.stop_reason).toBe('end_turn');
    const [echo, fail] = toolSpans(spans);
    expect(echo.attributes).toMatchObject({
      'gen_ai.tool.name': 'mcp__web__echo',
      'agentcheck.tool.kind': 'mcp',
      'mcp.method.name': 'tools/call',
      'agentcheck.tool.outcome': 'ok',
    });
    expect(String(echo.attributes['gen_ai.tool.call.result'])).toContain('echo: hi');
    expect(fail.attributes['error.type']).toBe('mcp_tool_error');
    // fail is not read-only, so allow_reads asked, and the approval let it through.
    expect(spans.some((span) => span.name === 'approval mcp__web__fail')).toBe(true);
    expect(JSON.stringify(spans)).not.toContain(TOKEN);
  });

  it('offers only the allow-listed tools and names the missing one', async () => {
    const { turn } = await runScripted(webBuild({ tools: ['echo', 'nope'] }), [{ text: 'never asked' }], { env });
    expect(turn.error).toMatchObject({ type: 'MCP_TOOL_NOT_FOUND' });
    expect(turn.error?.message).toContain('it offers: echo, fail');
  });

  it('shares one session among the runs of a pool and ends it on close', async () => {
    const before = server.sessionsStarted();
    const pool = new McpServerPool();
    try {
      const runs = await Promise.all(
        ['a', 'b', 'c'].map((text) => runScripted(webBuild(), [call('echo', { text }), { text: 'ok' }], { env, mcpServers: pool })),
      );
      expect(runs.map((run) => String(toolSpans(run.spans)[0].attributes['gen_ai.tool.call.result']))).toEqual(['"echo: a"', '"echo: b"', '"echo: c"']);
      expect(server.sessionsStarted() - before).toBe(1);
      expect(server.sessionsOpen()).toBe(1);
    } finally {
      await pool.close();
    }
    expect(server.sessionsOpen()).toBe(0);
  });

  it('fails the start clearly on a missing variable, a refused token and an unreachable server', async () => {
    const missing = await runScripted(webBuild(), [{ text: 'never asked' }], { env: { PATH: process.env.PATH } });
    expect(missing.turn.error).toMatchObject({ type: 'MCP_START_FAILED' });
    expect(missing.turn.error?.message).toContain('headers.Authorization needs the environment variable WEB_MCP_TOKEN, which is not set');

    // A token with a line break cannot be sent: the header and the variable are named, the token is not quoted.
    const broken = await runScripted(webBuild(), [{ text: 'never asked' }], { env: { WEB_MCP_TOKEN: `${TOKEN}\n` } });
    expect(broken.turn.error).toMatchObject({ type: 'MCP_START_FAILED' });
    expect(broken.turn.error?.message).toContain(
      'agent.mcps[name=web].headers.Authorization (filled from env.WEB_MCP_TOKEN) cannot be sent: a header value cannot hold a line break (LF, character 28 of the value)',
    );
    expect(JSON.stringify(broken)).not.toContain(TOKEN);

    const refused = await runScripted(webBuild(), [{ text: 'never asked' }], { env: { WEB_MCP_TOKEN: 'wrong-token-999' } });
    expect(refused.turn.error).toMatchObject({ type: 'MCP_START_FAILED' });
    expect(refused.turn.error?.message).toContain(`MCP server "web" (${server.url}) could not start`);
    expect(refused.turn.error?.message).toContain('unauthorized');

    const closed = await startHttpMcpServer();
    const url = closed.url;
    await closed.close();
    const unreachable = await runScripted(mcpBuild([{ name: 'web', url }]), [{ text: 'never asked' }]);
    expect(unreachable.turn.error).toMatchObject({ type: 'MCP_START_FAILED' });
  });
});
