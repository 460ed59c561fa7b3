import { describe, expect, it } from 'vitest';
import { compareReports } from '../../../src/runner/compare/compare-reports.js';
import { describeTrajectoryChange } from '../../../src/runner/compare/describe-trajectory.js';
import { diffTools, trajectoryChanges } from '../../../src/runner/compare/trajectory-changes.js';
import { report, row, testRunResult } from '../reporters/fixture-report.js';

const tools = (...pairs: Array<[string, number]>) => pairs.map(([name, called]) => ({ name, called, returned: called, errors: 0 }));
const run = (...pairs: Array<[string, number]>) => testRunResult({ tools: tools(...pairs) });

describe('diffTools', () => {
  it('reports calls added and removed per tool by name multiset', () => {
    // base {lookup: 1, finish: 1}, head {lookup: 2, finish: 1, search: 1}: +lookup 1, +search 1
    expect(diffTools(tools(['lookup', 1], ['finish', 1]), tools(['lookup', 2], ['finish', 1], ['search', 1]))).toEqual({
      added: [
        { tool: 'lookup', count: 1 },
        { tool: 'search', count: 1 },
      ],
      removed: [],
      reordered: false,
      base_order: ['lookup', 'finish'],
      head_order: ['lookup', 'finish', 'search'],
    });
    // base {a: 3, b: 1}, head {a: 1}: -a 2, -b 1
    expect(diffTools(tools(['a', 3], ['b', 1]), tools(['a', 1]))).toMatchObject({
      added: [],
      removed: [
        { tool: 'a', count: 2 },
        { tool: 'b', count: 1 },
      ],
      reordered: false,
    });
  });

  it('calls the same multiset in a different first-call order reordered', () => {
    expect(diffTools(tools(['a', 1], ['b', 2]), tools(['b', 2], ['a', 1]))).toMatchObject({ added: [], removed: [], reordered: true });
    expect(diffTools(tools(['a', 1], ['b', 2]), tools(['a', 1], ['b', 2]))).toMatchObject({ added: [], removed: [], reordered: false });
    // A count that changed beside them does not hide that the shared tools' order changed.
    expect(diffTools(tools(['lookup', 1], ['refund', 1]), tools(['refund', 2], ['lookup', 1]))).toMatchObject({
      added: [{ tool: 'refund', count: 1 }],
      reordered: true,
    });
    expect(diffTools(tools(['lookup', 1], ['refund', 1]), tools(['lookup', 1], ['search', 1], ['refund', 1]))).toMatchObject({ reordered: false });
    // never-called digest entries and mcp__ prefixes do not count as changes
    expect(diffTools(tools(['mcp__s__a', 1], ['b', 0]), tools(['a', 1]))).toMatchObject({ added: [], removed: [], reordered: false });
  });
});

describe('trajectoryChanges', () => {
  it('compares repeat 0 of each scenario x variant in both reports', () => {
    const base = report([
      row('s.yaml', 'same', { test_run: run(['lookup', 1], ['finish', 1]) }),
      row('s.yaml', 'grew', { test_run: run(['lookup', 1]) }),
      row('s.yaml', 'grew', { repeat: 1, test_run: run(['finish', 9]) }),
      row('s.yaml', 'swapped', { variant: 'lean', test_run: run(['a', 1], ['b', 1]) }),
      row('s.yaml', 'errored', { test_run: null, status: 'error' }),
      row('s.yaml', 'gone', { test_run: run(['x', 1]) }),
    ]);
    const head = report([
      row('s.yaml', 'same', { test_run: run(['lookup', 1], ['finish', 1]) }),
      row('s.yaml', 'grew', { test_run: run(['lookup', 2], ['finish', 1]) }),
      row('s.yaml', 'grew', { repeat: 1, test_run: run(['lookup', 1]) }),
      row('s.yaml', 'swapped', { variant: 'lean', test_run: run(['b', 1], ['a', 1]) }),
      row('s.yaml', 'errored', { test_run: run(['lookup', 1]) }),
      row('s.yaml', 'new', { test_run: run(['x', 1]) }),
    ]);
    const changes = trajectoryChanges(base, head);
    expect(changes.map((c) => c.key)).toEqual(['s.yaml#grew [base]', 's.yaml#swapped [lean]']);
    expect(describeTrajectoryChange(changes[0])).toBe('+lookup x1, +finish x1');
    expect(describeTrajectoryChange(changes[1])).toBe('reordered: a, b -> b, a');
    expect(compareReports(base, head).trajectory).toEqual(changes);
  });

  it("leaves out an interrupted run's cut test_run (not_run keeps it, but it is no trajectory)", () => {
    const base = report([row('s.yaml', 'cut', { test_run: run(['lookup', 1], ['finish', 1]) })]);
    const head = report([row('s.yaml', 'cut', { status: 'not_run', test_run: run(['lookup', 1]) })], { interrupted: true });
    expect(trajectoryChanges(base, head)).toEqual([]);
    expect(trajectoryChanges(head, base)).toEqual([]);
  });

  it('leaves the outcome comparison as it was', () => {
    const base = report([row('s.yaml', 'a', { test_run: run(['lookup', 1]) })]);
    const head = report([row('s.yaml', 'a', { status: 'fail', test_run: run(['search', 1]) })]);
    const comparison = compareReports(base, head);
    expect(comparison.regressed.map((c) => c.key)).toEqual(['s.yaml#a [base]']);
    expect(comparison.unchanged).toBe(0);
    expect(comparison.trajectory[0]).toMatchObject({ added: [{ tool: 'search', count: 1 }], removed: [{ tool: 'lookup', count: 1 }], reordered: false });
  });
});
