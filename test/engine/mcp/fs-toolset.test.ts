import { describe, expect, it } from 'vitest';
import { buildEvidence, runChecks } from '../../../src/verdicts/index.js';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { FS_SERVER, mcpBuild, nodeArgv } from './mcp-helpers.js';

describe('MCP servers as toolsets: @modelcontextprotocol/server-filesystem', () => {
  it('lists a directory and reads a file through the server, with execute_tool spans the checks read', async () => {
    const dir = tempDir({ 'hello.txt': 'Hello from MCP\n', 'sub/other.md': '# other\n' });
    const revision = mcpBuild([{ name: 'fs', command: nodeArgv(FS_SERVER, dir), tools: ['list_directory', 'read_text_file'] }]);
    const { turn, spans, model } = await runScripted(revision, [
      { tool_calls: [{ name: 'mcp__fs__list_directory', args: { path: dir } }] },
      { tool_calls: [{ name: 'mcp__fs__read_text_file', args: { path: `${dir}/hello.txt` } }] },
      { text: 'The file says hello.' },
    ]);
    expect(turn.error).toBeUndefined();
    expect(turn.stop_reason).toBe('end_turn');

    // Only the allow-listed tools are offered, under their prefixed names, with the server's schemas.
    const offered = model.requests[0].tools;
    expect(offered.map((tool) => tool.name)).toEqual(['mcp__fs__read_text_file', 'mcp__fs__list_directory']);
    expect(offered[0].parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    expect(offered[0].parameters).not.toHaveProperty('$schema');

    const [list, read] = toolSpans(spans);
    expect(list.name).toBe('execute_tool mcp__fs__list_directory');
    expect(list.attributes).toMatchObject({
      'gen_ai.tool.type': 'extension',
      'mcp.method.name': 'tools/call',
      'agentcheck.tool.kind': 'mcp',
      'agentcheck.tool.read_only': true,
      'agentcheck.tool.outcome': 'ok',
    });
    expect(String(list.attributes['gen_ai.tool.call.result'])).toContain('[FILE] hello.txt');
    expect(String(list.attributes['gen_ai.tool.call.result'])).toContain('[DIR] sub');
    // structuredContent is the result when the server sends it.
    expect(JSON.parse(String(read.attributes['gen_ai.tool.call.result']))).toEqual({ content: 'Hello from MCP\n' });
    const toolMessages = turn.messages.filter((message) => message.role === 'tool');
    expect(toolMessages[1]).toMatchObject({ is_error: false, content: '{"content":"Hello from MCP\\n"}' });

    const evidence = buildEvidence({ spans, transcript: turn.messages, output: turn.output });
    const checks = runChecks(
      [
        { tool_called: { tool: 'read_text_file', args: { path: `${dir}/hello.txt` } } },
        { tool_sequence: { mode: 'strict', args_mode: 'ignore', calls: [{ tool: 'list_directory' }, { tool: 'read_text_file' }] } },
        { no_tool_errors: {} },
        { tool_not_called: { tool: 'write_file' } },
      ],
      evidence,
    );
    expect(checks.map((check) => [check.id, check.status, check.reason])).toEqual(checks.map((check) => [check.id, 'pass', check.reason]));
  });

  it('takes read_only from readOnlyHint and permission from the entry; a tool outside the allow list is unknown', async () => {
    const dir = tempDir({ 'a.txt': 'a' });
    const revision = mcpBuild([{ name: 'fs', command: nodeArgv(FS_SERVER, dir), tools: ['read_text_file', 'write_file'] }], {
      permissions: { mode: 'allow_reads' },
    });
    const { turn, spans } = await runScripted(
      revision,
      [
        { tool_calls: [{ name: 'mcp__fs__write_file', args: { path: `${dir}/b.txt`, content: 'x' } }] },
        { tool_calls: [{ name: 'mcp__fs__list_directory', args: { path: dir } }] },
        { text: 'done' },
      ],
      { approvals: { tools: { mcp__fs__write_file: 'deny' } } },
    );
    expect(turn.stop_reason).toBe('end_turn');
    const [write, list] = toolSpans(spans);
    expect(write.attributes).toMatchObject({ 'agentcheck.tool.read_only': false, 'agentcheck.tool.outcome': 'denied' });
    expect(write.attributes['mcp.method.name']).toBeUndefined(); // never sent to the server
    expect(list.attributes).toMatchObject({ 'agentcheck.tool.refused': 'unknown_tool' });
    expect(String(list.status_message)).toContain('mcp__fs__read_text_file, mcp__fs__write_file');
  });
});
