import { describe, expect, it } from 'vitest';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { mcpBuild, NAMES_SERVER, nodeArgv } from './mcp-helpers.js';

const LONG = 't'.repeat(70);

describe('MCP tool names, once mapped to mcp__<server>__<tool>', () => {
  it('refuses to start a server two of whose tools would be offered under one name', async () => {
    const revision = mcpBuild([{ name: 'names', command: nodeArgv(NAMES_SERVER, 'a.b', 'a_b', 'other') }]);
    const { turn } = await runScripted(revision, [{ text: 'never asked' }]);
    expect(turn.stop_reason).toBe('error');
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toBe(
      'MCP server "names" could not start: its tools "a.b" and "a_b" would both be offered as "mcp__names__a_b" (characters other than letters, digits, _ and - become _); offer one of them only, with agent.mcps[name=names].tools',
    );
  });

  it('offers the one the allow list keeps when it leaves the other out', async () => {
    const revision = mcpBuild([{ name: 'names', command: nodeArgv(NAMES_SERVER, 'a.b', 'a_b'), tools: ['a.b'] }]);
    const { turn, spans } = await runScripted(revision, [{ tool_calls: [{ name: 'mcp__names__a_b', args: {} }] }, { text: 'done' }]);
    expect(turn.stop_reason).toBe('end_turn');
    expect(toolSpans(spans)[0].attributes['gen_ai.tool.call.result']).toBe('"called a.b"');
  });

  it('refuses a tool whose offered name would be over 64 characters, saying how long', async () => {
    const revision = mcpBuild([{ name: 'names', command: nodeArgv(NAMES_SERVER, LONG, 'short') }]);
    const { turn } = await runScripted(revision, [{ text: 'never asked' }]);
    expect(turn.error?.type).toBe('MCP_START_FAILED');
    expect(turn.error?.message).toBe(
      `MCP server "names" could not start: its tool "${LONG}" would be offered as "mcp__names__${LONG}", 82 characters (tool names are at most 64); leave it out with agent.mcps[name=names].tools, or shorten the server's name`,
    );
    const kept = mcpBuild([{ name: 'names', command: nodeArgv(NAMES_SERVER, LONG, 'short'), tools: ['short'] }]);
    expect((await runScripted(kept, [{ text: 'done' }])).turn.stop_reason).toBe('end_turn');
  });

  it('cannot offer tools of two servers under one name: a server name ending in "_" is refused at load', () => {
    // "a" + "__" + "_b" and "a_" + "__" + "b" would both be mcp__a___b, read as server a's "_b".
    expect(() =>
      mcpBuild([
        { name: 'a', command: nodeArgv(NAMES_SERVER, '_b') },
        { name: 'a_', command: nodeArgv(NAMES_SERVER, 'b') },
      ]),
    ).toThrow(/agent\.mcps\[1\]\.name: MCP server name "a_" may not end with "_"/);
  });
});
