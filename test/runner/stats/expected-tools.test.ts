import { describe, expect, it } from 'vitest';
import { expectedTools } from '../../../src/runner/stats/expected-tools.js';

describe('expectedTools', () => {
  it('collects terminal_tool, tool_called and tool_sequence names, as checks compare them and deduplicated', () => {
    const tools = expectedTools({
      terminal_tool: 'execute_tool finish',
      checks: [
        { tool_called: { tool: 'lookup', args: { id: '1' } } },
        { tool_sequence: { mode: 'superset', calls: [{ tool: 'search' }, { tool: 'execute_tool lookup' }, { tool: '/^del/' }] } },
        { tool_not_called: { tool: 'drop_table' } },
        { output: { contains: 'done' } },
      ],
    });
    expect(tools).toEqual(['finish', 'lookup', 'search']);
  });

  it('keeps the server of a name written with one: it names that server’s tool only', () => {
    const tools = expectedTools({
      terminal_tool: 'mcp__fs__finish',
      checks: [
        { tool_called: { tool: 'execute_tool mcp__fs__finish' } },
        { tool_called: { tool: 'mcp__a__write_note' } },
        { tool_called: { tool: 'mcp__b__write_note' } },
        { tool_called: { tool: 'write_note' } },
      ],
    });
    expect(tools).toEqual(['mcp__fs__finish', 'mcp__a__write_note', 'mcp__b__write_note', 'write_note']);
  });

  it('leaves out tools a check forbids (max: 0) and tools a subset sequence merely allows', () => {
    const tools = expectedTools({
      terminal_tool: 'lookup_order',
      checks: [
        { tool_called: { tool: 'delete_order', min: 0, max: 0 } },
        { tool_called: { tool: 'send_email', max: 2 } },
        { tool_sequence: { mode: 'subset', calls: [{ tool: 'lookup_order' }, { tool: 'refund' }] } },
        { tool_sequence: { calls: [{ tool: 'check_stock' }] } },
      ],
    });
    expect(tools).toEqual(['lookup_order', 'send_email', 'check_stock']);
  });

  it('leaves out an optional tool (min: 0) and a terminal tool the scenario expects not to reach (verdict: incomplete)', () => {
    expect(expectedTools({ terminal_tool: 'lookup_order', checks: [{ tool_called: { tool: 'send_email', min: 0, max: 1 } }] })).toEqual(['lookup_order']);
    expect(expectedTools({ terminal_tool: 'create_refund', verdict: 'incomplete', checks: [{ tool_called: { tool: 'lookup_order' } }] })).toEqual([
      'lookup_order',
    ]);
  });

  it('skips /regex/ names, a regex terminal tool included', () => {
    expect(expectedTools({ terminal_tool: '/fin.*/i', checks: [{ tool_called: { tool: '/look/' } }] })).toEqual([]);
    expect(expectedTools({ checks: [] })).toEqual([]);
  });
});
