import { describe, expect, it } from 'vitest';
import { invoke } from '../../../src/engine/invoke.js';
import type { ModelRequest } from '../../../src/engine/model/model.js';
import { ScriptedModel } from '../../../src/engine/providers/scripted.js';
import { installTracing } from '../../../src/spans/tracing.js';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { mcpBuild, nodeArgv, STUB_SERVER } from './mcp-helpers.js';

const call = (tool: string, args: Record<string, unknown> = {}) => ({ tool_calls: [{ name: `mcp__stub__${tool}`, args }] });

describe('MCP toolsets: failing servers give errors, never a hang', () => {
  it('ends the run with MCP_START_FAILED when the server exits at start-up', async () => {
    const revision = mcpBuild([{ name: 'broken', command: [process.execPath, '-e', 'console.error("no config found"); process.exit(1)'] }]);
    // A hang here would end at the test timeout, not pass.
    const { turn } = await runScripted(revision, [{ text: 'never asked' }]);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toContain('MCP server "broken"');
    expect(turn.error?.message).toContain('no config found');
  });

  it('ends the run with MCP_START_FAILED when the command does not exist', async () => {
    const revision = mcpBuild([{ name: 'missing', command: ['agentcheck-no-such-mcp-server'] }]);
    const { turn } = await runScripted(revision, [{ text: 'never asked' }]);
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toMatch(/agentcheck-no-such-mcp-server.*ENOENT/);
  });

  it('gives up on a server that never answers initialize after start_timeout_ms', async () => {
    const revision = mcpBuild([{ name: 'mute', command: [process.execPath, '-e', 'setInterval(() => {}, 1000)'], start_timeout_ms: 300 }]);
    const { turn } = await runScripted(revision, [{ text: 'never asked' }]);
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toContain('no answer within 300 ms');
  });

  it('turns a call that hangs past timeout_ms into a timeout tool error and goes on', async () => {
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER), timeout_ms: 300 }]);
    const { turn, spans } = await runScripted(revision, [call('hang'), call('echo', { text: 'still here' }), { text: 'done' }]);
    expect(turn.stop_reason).toBe('end_turn');
    const [hang, echo] = toolSpans(spans);
    expect(hang.status).toBe('error');
    expect(hang.attributes['error.type']).toBe('timeout');
    expect(String(hang.attributes['gen_ai.tool.call.result'])).toContain('did not answer tools/call hang within 300 ms');
    expect(echo.attributes['agentcheck.tool.outcome']).toBe('ok');
  });

  it("says a call cut off by the run's abort was canceled, not that the server did not answer", async () => {
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER), timeout_ms: 600_000 }]);
    const run = new AbortController();
    const scripted = new ScriptedModel([call('hang'), { text: 'never' }]);
    // The abort comes as a timer after the model asked for the hanging call: the call is sent in
    // the same run of microtasks, so it is always in flight when the run is aborted.
    const model = {
      provider: scripted.provider,
      modelId: scripted.modelId,
      generate: async (request: ModelRequest) => {
        const response = await scripted.generate(request);
        setTimeout(() => run.abort(new Error('the run timed out')), 0);
        return response;
      },
    };
    const { tracer, store } = installTracing();
    const turn = await invoke(revision, { messages: [{ role: 'user', content: 'go' }] }, { model, tracer, signal: run.signal });
    expect(turn.stop_reason).toBe('error');
    const [hang] = toolSpans(store.take(turn.trace_id));
    expect(hang.attributes['error.type']).toBe('canceled');
    expect(String(hang.attributes['gen_ai.tool.call.result'])).toContain('tools/call hang was canceled (the run was aborted)');
  }, 90_000);

  it('records mcp.method.name only on a call sent to the server, not on one refused because the server had exited', async () => {
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER) }]);
    const { spans } = await runScripted(revision, [call('crash'), call('echo', { text: 'after' }), { text: 'done' }]);
    const [crash, after] = toolSpans(spans);
    expect(crash.attributes['mcp.method.name']).toBe('tools/call');
    expect(after.attributes['error.type']).toBe('mcp_server_exited');
    expect(after.attributes).not.toHaveProperty('mcp.method.name');
  });

  it('reports an isError result as an error outcome with its text', async () => {
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER) }]);
    const { turn, spans } = await runScripted(revision, [call('fail'), { text: 'done' }]);
    const [fail] = toolSpans(spans);
    expect(fail.attributes).toMatchObject({ 'agentcheck.tool.outcome': 'error', 'error.type': 'mcp_tool_error' });
    expect(turn.messages.find((message) => message.role === 'tool')).toMatchObject({ is_error: true, content: 'the stub refuses' });
  });

  it('refuses an allow list naming a tool the server lacks, listing what it offers', async () => {
    const revision = mcpBuild([{ name: 'stub', command: nodeArgv(STUB_SERVER), tools: ['echo', 'nope'] }]);
    const { turn } = await runScripted(revision, [{ text: 'never asked' }]);
    expect(turn.error?.type).toBe('MCP_TOOL_NOT_FOUND');
    expect(turn.error?.message).toContain('agent.mcps[name=stub].tools lists "nope"');
    expect(turn.error?.message).toMatch(/it offers: .*echo.*hang/);
  });
});
