import { describe, expect, it } from 'vitest';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { scoreTestRun } from '../../src/verdicts/test-run-verdict.js';
import { coversToolName, sameToolName, toolNameMatcher } from '../../src/verdicts/tool-name.js';
import { check, evidenceOf, invalid } from './check-helpers.js';
import { RunBuilder } from './span-builder.js';

// docs/verdicts.md, The test_run verdict: a name written with `mcp__<server>__` names that server's tool only.

describe('toolNameMatcher with a server prefix', () => {
  it('matches only the full name of that server, execute_tool stripped', () => {
    const matches = toolNameMatcher('mcp__b__write_note');
    expect(matches('mcp__b__write_note')).toBe(true);
    expect(matches('execute_tool mcp__b__write_note')).toBe(true);
    expect(matches('mcp__a__write_note')).toBe(false);
    expect(matches('write_note')).toBe(false);
    expect(toolNameMatcher('execute_tool mcp__b__write_note')('mcp__b__write_note')).toBe(true);
  });

  it('a name without the prefix matches any server tool and the agent tool of that name', () => {
    const matches = toolNameMatcher('write_note');
    expect(['mcp__a__write_note', 'mcp__b__write_note', 'write_note', 'execute_tool write_note'].every(matches)).toBe(true);
    expect(matches('mcp__a__write_notes')).toBe(false);
  });

  it('a /regex/ tests the name without the prefix', () => {
    expect(toolNameMatcher('/^write_/')('mcp__b__write_note')).toBe(true);
    expect(toolNameMatcher('/^mcp__/')('mcp__b__write_note')).toBe(false);
  });

  it('sameToolName keys a prefixed name by its full name; coversToolName says which literal covers another', () => {
    expect(sameToolName('mcp__a__write_note', 'mcp__b__write_note')).toBe(false);
    expect(sameToolName('mcp__a__write_note', 'execute_tool mcp__a__write_note')).toBe(true);
    expect(sameToolName('write_note', 'execute_tool write_note')).toBe(true);
    expect(coversToolName('write_note', 'mcp__a__write_note')).toBe(true);
    expect(coversToolName('mcp__a__write_note', 'write_note')).toBe(false);
    expect(coversToolName('/write_note/', 'write_note')).toBe(false);
  });
});

// Server a's write_note was called; b's never was.
const onlyA = evidenceOf([[{ name: 'mcp__a__write_note', args: { text: 'hi' } }], [{ name: 'finish' }]]);

describe('checks with a server-prefixed tool', () => {
  it('tool_not_called on another server passes; on the called one fails', () => {
    expect(check('tool_not_called', { tool: 'mcp__b__write_note' }, onlyA).status).toBe('pass');
    expect(check('tool_not_called', { tool: 'mcp__a__write_note' }, onlyA).status).toBe('fail');
    expect(check('tool_not_called', { tool: 'write_note' }, onlyA).status).toBe('fail');
  });

  it('tool_called on another server fails', () => {
    const result = check('tool_called', { tool: 'mcp__other__write_note' }, onlyA);
    expect(result.status).toBe('fail');
    expect(result.reason).toBe('expected mcp__other__write_note to be called at least once; saw write_note x1, finish x1');
    expect(check('tool_called', { tool: 'mcp__a__write_note', args: { text: 'hi' } }, onlyA).status).toBe('pass');
  });

  it('tool_returned and tool_order hold the server', () => {
    expect(check('tool_returned', { tool: 'mcp__b__write_note' }, onlyA).status).toBe('fail');
    expect(check('tool_returned', { tool: 'mcp__a__write_note' }, onlyA).status).toBe('pass');
    expect(check('tool_order', { before: ['mcp__x__write_note'], after: 'finish' }, onlyA).reason).toContain('mcp__x__write_note was never called');
    expect(check('tool_order', { before: ['mcp__a__write_note'], after: 'mcp__y__finish' }, onlyA).reason).toContain('mcp__y__finish was never called');
    expect(check('tool_order', { before: ['mcp__a__write_note'], after: 'finish' }, onlyA).status).toBe('pass');
  });

  it('tool_sequence says which server the call was', () => {
    const result = check('tool_sequence', { calls: [{ tool: 'mcp__b__write_note' }, { tool: 'finish' }], mode: 'strict' }, onlyA);
    expect(result).toMatchObject({
      status: 'fail',
      reason: 'strict: expected call 1 (mcp__b__write_note) at call 1: is mcp__a__write_note, not mcp__b__write_note; saw write_note x1, finish x1',
    });
    expect(check('tool_sequence', { calls: [{ tool: 'mcp__a__write_note' }, { tool: 'finish' }], mode: 'strict' }, onlyA).status).toBe('pass');
  });

  it('tool_order refuses a before name that is, or covers, the after tool', () => {
    expect(invalid('tool_order', { before: ['mcp__a__write_note'], after: 'mcp__a__write_note' })).toContain('is also the after tool');
    expect(invalid('tool_order', { before: ['write_note'], after: 'mcp__a__write_note' })).toContain('is also the after tool');
    expect(invalid('tool_order', { before: ['mcp__a__write_note'], after: 'mcp__b__write_note' })).toBeNull();
  });

  it('approval compares with the approval span’s full name (raw_tool)', () => {
    const run = new RunBuilder();
    run.approval('mcp__a__write_note', 'deny');
    run.modelCalls([{ name: 'mcp__a__write_note', outcome: 'denied' }]);
    run.text();
    const evidence = buildEvidence({ spans: run.spans() });
    expect(evidence.approvals[0]).toMatchObject({ tool: 'write_note', raw_tool: 'mcp__a__write_note' });
    expect(check('approval', { tool: 'mcp__b__write_note' }, evidence)).toMatchObject({
      status: 'fail',
      reason: 'expected an approval for mcp__b__write_note; saw write_note: deny',
    });
    expect(check('approval', { tool: 'mcp__a__write_note', decision: 'deny' }, evidence).status).toBe('pass');
    expect(check('approval', { tool: 'write_note' }, evidence).status).toBe('pass');
  });
});

describe('the verdict with a server-prefixed terminal tool', () => {
  const run = () => {
    const builder = new RunBuilder();
    builder.modelCalls([{ name: 'finish' }]);
    builder.text();
    return builder.spans();
  };
  it('is incomplete when only a tool of that name elsewhere was called', () => {
    expect(scoreTestRun({ spans: run(), stop_reason: 'end_turn', terminal_tool: 'mcp__nosuchserver__finish' })).toMatchObject({
      verdict: 'incomplete',
      verdict_reason: 'terminal tool mcp__nosuchserver__finish was never called; saw finish x1',
    });
  });
  it('passes on that server’s call', () => {
    const builder = new RunBuilder();
    builder.modelCalls([{ name: 'mcp__notes__finish' }]);
    builder.text();
    expect(scoreTestRun({ spans: builder.spans(), stop_reason: 'end_turn', terminal_tool: 'mcp__notes__finish' }).verdict).toBe('pass');
  });
});

describe('the test_run digest', () => {
  it('names a tool without its server and counts its calls by server, so two servers’ tools stay apart', () => {
    const builder = new RunBuilder();
    builder.modelCalls([{ name: 'mcp__a__write_note' }, { name: 'mcp__b__write_note' }, { name: 'write_note' }]);
    builder.modelCalls([{ name: 'mcp__a__write_note' }, { name: 'finish' }]);
    builder.text();
    expect(scoreTestRun({ spans: builder.spans(), stop_reason: 'end_turn', terminal_tool: 'finish' }).tools).toEqual([
      { name: 'write_note', called: 4, returned: 4, errors: 0, servers: { a: 2, b: 1 } },
      { name: 'finish', called: 1, returned: 1, errors: 0 },
    ]);
  });
});
