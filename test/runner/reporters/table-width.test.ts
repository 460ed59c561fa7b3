import { describe, expect, it } from 'vitest';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { renderTableReport } from '../../../src/runner/reporters/table-reporter.js';
import { report, row, testRunResult } from './fixture-report.js';

describe('the terminal table at a narrow width', () => {
  it('wraps the status and verdict before squeezing the scenario id, and never passes the width', () => {
    const long = 'an argument that would be an option is refused before the command runs';
    const rows = [
      row('coding/command-args.scenarios.yaml', long, { expect_failure: 'refuses options', test_run: testRunResult({ verdict: 'unconfirmed', verdict_reason: 'x' }) }),
      row('coding/command-args.scenarios.yaml', 'plain', { no_expectation: true }),
    ];
    const text = renderTableReport(report(rows), palette(false), { columns: 100 });
    const table = text.split('\n').filter((line) => /^[│┌├└]/.test(line));
    for (const line of table) expect(line.length, line).toBeLessThanOrEqual(100);
    const header = table[1].split('│').map((cell) => cell.length);
    // [, status, scenario, variant, verdict, ...]: the id keeps most of the room, the verdict stays readable.
    expect(header[2]).toBeGreaterThanOrEqual(24);
    expect(header[4]).toBeGreaterThanOrEqual(13);
    expect(text).toContain('unconfirmed');
    // The wrapped status still reads as what it is.
    expect(table.some((line) => line.includes('PASS'))).toBe(true);
    expect(table.some((line) => line.includes('failure)'))).toBe(true);
    expect(table.some((line) => line.includes('expectation)'))).toBe(true);
  });
});
