import { describe, expect, it } from 'vitest';
import { toolSelection } from '../../../src/runner/stats/tool-selection.js';
import { row, testRunResult } from '../reporters/fixture-report.js';

const calls = (...pairs: Array<[string, number]>) => testRunResult({ tools: pairs.map(([name, called]) => ({ name, called, returned: called, errors: 0 })) });

describe('toolSelection', () => {
  // Hand computation, per scored run: hits = |called ∩ expected|
  //   r1 expected {finish, lookup}, called {lookup, finish}        hits 2, called 2, expected 2, wrong 0
  //   r2 expected {finish, lookup}, called {search x2, finish}     hits 1, called 2, expected 2, wrong 2; missed lookup
  //   r3 expected {finish, lookup}, called {search, list}          hits 0, called 2, expected 2, wrong 2; missed both
  //   r4 expected {mcp__srv__lookup}, called {mcp__srv__lookup}    hits 1, called 1, expected 1 (prefix stripped)
  //   r5 expected {}                                               not scored (nothing to judge against)
  //   r6 no test_run                                               not scored (the run never happened)
  //   r7 expected {finish}, called {} (ignored: never called)      hits 0, called 0, expected 1; missed finish
  // micro precision = 4/7, micro recall = 4/8
  // macro precision = mean(1, 1/2, 0, 1) over runs with calls = 0.625; macro recall = mean(1, 1/2, 0, 1, 0) = 0.5
  // wrong calls = 4 over 5 runs = 0.8
  // confusion: lookup missed in r2 (search) and r3 (search, list); finish missed in r3 (search, list) and r7 (nothing)
  const rows = [
    row('t.yaml', 'r1', { expected_tools: ['finish', 'lookup'], test_run: calls(['lookup', 1], ['finish', 1]) }),
    row('t.yaml', 'r2', { expected_tools: ['finish', 'lookup'], test_run: calls(['search', 2], ['finish', 1]) }),
    row('t.yaml', 'r3', { expected_tools: ['finish', 'lookup'], test_run: calls(['search', 1], ['list', 1]) }),
    row('t.yaml', 'r4', { expected_tools: ['mcp__srv__lookup'], test_run: calls(['mcp__srv__lookup', 1]) }),
    row('t.yaml', 'r5', { expected_tools: [], test_run: calls(['search', 1]) }),
    row('t.yaml', 'r6', { expected_tools: ['lookup'], test_run: null }),
    row('t.yaml', 'r7', { expected_tools: ['finish'], test_run: calls(['finish', 0]) }),
  ];

  it('computes micro and macro precision and recall and wrong-tool calls', () => {
    const result = toolSelection(rows);
    expect(result.runs).toBe(5);
    expect(result.precision).toBeCloseTo(4 / 7, 12);
    expect(result.recall).toBeCloseTo(0.5, 12);
    expect(result.macro_precision).toBeCloseTo(0.625, 12);
    expect(result.macro_recall).toBeCloseTo(0.5, 12);
    expect(result.wrong_tool_calls.total).toBe(4);
    expect(result.wrong_tool_calls.per_run).toBeCloseTo(0.8, 12);
  });

  it('builds the confusion table of expected tools and what was called instead', () => {
    expect(toolSelection(rows).confusion).toEqual({
      lookup: { missed: 2, called_instead: { search: 2, list: 1 } },
      finish: { missed: 2, called_instead: { search: 1, list: 1 } },
    });
  });

  it('does not score a run that made no choices (an error before the model answered or any tool was called)', () => {
    // An MCP server that did not start, SCRIPT_MISSING: an empty call list that is no miss.
    const noChoices = row('t.yaml', 'x', { status: 'error', expected_tools: ['lookup'], test_run: calls(), turns: 0, no_choices: true });
    expect(toolSelection([noChoices, noChoices])).toEqual({
      runs: 0,
      precision: null,
      recall: null,
      macro_precision: null,
      macro_recall: null,
      wrong_tool_calls: { total: 0, per_run: null },
      confusion: {},
    });
    // Beside scored runs it changes nothing: the same figures as without it.
    expect(toolSelection([...rows, noChoices])).toEqual(toolSelection(rows));
  });

  it('has no ratios without scored runs, and keeps __proto__ an ordinary tool name', () => {
    expect(toolSelection([row('t.yaml', 'x', { expected_tools: [] })])).toMatchObject({
      runs: 0,
      precision: null,
      recall: null,
      macro_precision: null,
      wrong_tool_calls: { total: 0, per_run: null },
    });
    const odd = toolSelection([row('t.yaml', 'x', { expected_tools: ['__proto__'], test_run: calls(['constructor', 1]) })]);
    expect(Object.keys(odd.confusion)).toEqual(['__proto__']);
    expect(odd.confusion.__proto__).toEqual({ missed: 1, called_instead: { constructor: 1 } });
  });
});

describe('toolSelection with server-prefixed names', () => {
  // A digest row as test_run writes it: the name without its server, the calls by server.
  const digest = (name: string, called: number, servers?: Record<string, number>) => ({
    name,
    called,
    returned: called,
    errors: 0,
    ...(servers && { servers }),
  });
  const run = (expected: string[], ...tools: Array<ReturnType<typeof digest>>) =>
    row('t.yaml', 'r', { expected_tools: expected, test_run: testRunResult({ tools }) });

  it("counts a call of another server's tool as a wrong call, not a hit, as the check does", () => {
    const result = toolSelection([run(['mcp__a__write_note'], digest('write_note', 1, { b: 1 }))]);
    expect(result).toMatchObject({ runs: 1, precision: 0, recall: 0, wrong_tool_calls: { total: 1, per_run: 1 } });
    expect(result.confusion).toEqual({ mcp__a__write_note: { missed: 1, called_instead: { mcp__b__write_note: 1 } } });
    expect(toolSelection([run(['mcp__a__write_note'], digest('write_note', 1, { a: 1 }))])).toMatchObject({ precision: 1, recall: 1 });
  });

  it("tells the agent's own tool from a server's, and a name without a server still counts every server's tool once", () => {
    // The agent's write_note and server a's: one expected, one wrong.
    const own = toolSelection([run(['mcp__a__write_note', 'finish'], digest('write_note', 3, { a: 1 }), digest('finish', 1))]);
    expect(own).toMatchObject({ precision: 2 / 3, recall: 1, wrong_tool_calls: { total: 2 } });
    // write_note of any server is one expected tool, as before the digest named servers.
    expect(toolSelection([run(['write_note'], digest('write_note', 2, { a: 1, b: 1 }))])).toMatchObject({
      precision: 1,
      recall: 1,
      wrong_tool_calls: { total: 0 },
    });
    // Both names expected, server a's called: it is each of them.
    expect(toolSelection([run(['write_note', 'mcp__a__write_note'], digest('write_note', 1, { a: 1 }))])).toMatchObject({ precision: 1, recall: 1 });
    expect(toolSelection([run(['write_note', 'mcp__a__write_note'], digest('write_note', 1, { b: 1 }))])).toMatchObject({ precision: 1, recall: 0.5 });
  });

  it('counts nested calls by their server too, and reads a report written before the digest named servers', () => {
    const nested = row('t.yaml', 'n', { expected_tools: ['mcp__a__read'], test_run: testRunResult({ tools: [] }), nested_calls: { mcp__b__read: 1 } });
    expect(toolSelection([nested])).toMatchObject({ precision: 0, recall: 0, wrong_tool_calls: { total: 1 } });
    // Without servers a call is the tool of its name: a prefixed expectation is not met by it.
    expect(toolSelection([run(['write_note'], digest('write_note', 1))])).toMatchObject({ precision: 1, recall: 1 });
    expect(toolSelection([run(['mcp__a__write_note'], digest('write_note', 1))])).toMatchObject({ precision: 0, recall: 0 });
  });
});
