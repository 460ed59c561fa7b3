import { describe, expect, it } from 'vitest';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { clip } from '../../../src/runner/reporters/format/row-cells.js';
import { renderTableReport } from '../../../src/runner/reporters/table-reporter.js';
import { report, row } from './fixture-report.js';

const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('TableReporter with very long user text', () => {
  it('caps the scenario cell at 120 characters and the others at 80, with an ellipsis', () => {
    const name = 'n'.repeat(100_000);
    const variant = 'v'.repeat(5_000);
    const input = report([row('a.scenario.yaml', name), row('a.scenario.yaml', 'short', { variant })]);
    const text = renderTableReport(input, palette(false), { columns: 1000 });
    expect(widest(text)).toBeLessThan(400);
    expect(text).toContain(`a.scenario.yaml#${'n'.repeat(120 - 'a.scenario.yaml#'.length - 1)}…`);
    expect(text).toContain(`${'v'.repeat(79)}…`);
    expect(text).not.toContain('v'.repeat(80));
    // The report itself keeps the whole name.
    expect(input.scenarios[0].id).toHaveLength('a.scenario.yaml#'.length + 100_000);
  });

  it('caps the label and reason of failure lines and the comparison table cells', () => {
    const name = 'x'.repeat(50_000);
    const rows = [
      row('a.scenario.yaml', name, { status: 'fail', reason: 'r'.repeat(50_000), tags: ['t'.repeat(10_000)] }),
      row('a.scenario.yaml', name, { variant: 'w'.repeat(10_000), tags: ['t'.repeat(10_000)] }),
    ];
    const text = renderTableReport(report(rows), palette(false), { columns: 2000 });
    expect(widest(text)).toBeLessThan(1300);
    const lines = text.split('\n');
    const failure = lines.findIndex((line) => line.startsWith('FAIL '));
    expect(lines[failure]).toMatch(/^FAIL a\.scenario\.yaml#x+… \[base\]$/);
    expect(lines[failure + 1]).toMatch(/^ {2}✗ r{999}…$/);
  });

  it('short cells are unchanged, and clip never splits a surrogate pair', () => {
    const input = report([row('a.scenario.yaml', 'refund ok')]);
    expect(renderTableReport(input, palette(false), { columns: 1000 })).toContain('│ a.scenario.yaml#refund ok │ base');
    expect(clip('ab😀cd', 4)).toBe('ab…');
    expect(clip('abc😀d', 5)).toBe('abc…');
  });
});
