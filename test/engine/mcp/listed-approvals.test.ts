import { describe, expect, it } from 'vitest';
import type { McpServerSpec } from '../../../src/engine/revision/types.js';
import { runScripted, toolSpans } from '../../helpers/run-agent.js';
import { mcpBuild, NAMES_SERVER, nodeArgv } from './mcp-helpers.js';

// Servers without a `tools` list: approvals naming their tools are held to what they list when
// the run starts them, before the model's first call (docs/mcp.md, Calls).
const notes = (...tools: string[]): McpServerSpec => ({ name: 'notes', command: nodeArgv(NAMES_SERVER, ...tools), permission: 'ask' });
const CALL_WRITE = [{ tool_calls: [{ name: 'mcp__notes__write_note', args: {} }] }, { text: 'done' }];

describe('approvals for the tools of an MCP server without a tools list (invoke)', () => {
  it('refuses a name the server does not list, with the load-time message and did-you-mean, before any call', async () => {
    const revision = mcpBuild([notes('write_note', 'list_notes')]);
    const { turn, spans, model } = await runScripted(revision, CALL_WRITE, { approvals: { default: 'approve', tools: { mcp__notes__write_nte: 'deny' } } });
    expect(turn.stop_reason).toBe('error');
    expect(turn.error).toEqual({
      type: 'CONFIG_INVALID',
      message:
        'approvals at tools.mcp__notes__write_nte: "mcp__notes__write_nte" names no tool of the agent; expected one of: mcp__notes__write_note, mcp__notes__list_notes; did you mean "mcp__notes__write_note"?',
    });
    expect(toolSpans(spans)).toEqual([]);
    expect(model.requests).toEqual([]);
  });

  it('takes the tool part alone when it names exactly one listed tool, and refuses it when two servers list it', async () => {
    const one = await runScripted(mcpBuild([notes('write_note')]), CALL_WRITE, { approvals: { tools: { write_note: 'deny' } } });
    expect(one.turn.stop_reason).toBe('end_turn');
    expect(toolSpans(one.spans)[0].attributes['agentcheck.tool.outcome']).toBe('denied');

    const two = mcpBuild([notes('write_note'), { name: 'drafts', command: nodeArgv(NAMES_SERVER, 'write_note'), permission: 'ask' }]);
    const { turn } = await runScripted(two, CALL_WRITE, { approvals: { tools: { write_note: 'deny' } } });
    expect(turn.error?.message).toBe(
      'approvals at tools.write_note: "write_note" names no tool of the agent; expected one of: mcp__notes__write_note, mcp__drafts__write_note; it is the tool part of "mcp__notes__write_note" and "mcp__drafts__write_note": did you mean one of them?',
    );
  });

  it('with approvalsHeldTo, drops a name another build lists in its own tools list, and holds one its same server lacks', async () => {
    const revision = mcpBuild([notes('write_note')]);
    const listing = mcpBuild([{ ...notes('write_note', 'erase'), tools: ['write_note', 'erase'] }]).build;
    const same = mcpBuild([notes('write_note')]).build;
    const approvals = { default: 'approve' as const, tools: { erase: 'deny' } };
    const dropped = await runScripted(revision, CALL_WRITE, { approvals, approvalsHeldTo: [revision.build, listing] });
    expect(dropped.turn.stop_reason).toBe('end_turn');
    expect(toolSpans(dropped.spans)[0].attributes['agentcheck.tool.outcome']).not.toBe('denied');

    const held = await runScripted(revision, CALL_WRITE, { approvals, approvalsHeldTo: [revision.build, same] });
    expect(held.turn.error?.message).toMatch(/^approvals at tools\.erase: "erase" names no tool of the agent; expected one of: mcp__notes__write_note$/);
  });
});
