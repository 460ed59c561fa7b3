import { describe, expect, it } from 'vitest';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { TABLE_ROW_LIMIT } from '../../../src/runner/reporters/quiet-report.js';
import { renderTableReport, TableReporter } from '../../../src/runner/reporters/table-reporter.js';
import { bigReport, captureStream, fixtureReport, report, row, stripAnsi } from './fixture-report.js';

async function printed(input = fixtureReport(), color = false): Promise<string> {
  const capture = captureStream();
  // Wide enough that no cell wraps; the width tests below narrow it.
  await new TableReporter().onRunEnd(input, { out: '/nonexistent', stdout: capture.stream, color, columns: 200 });
  return capture.text();
}

describe('TableReporter', () => {
  it('prints every row with its status, id and cells', async () => {
    const text = await printed();
    const lines = text.split('\n');
    for (const r of fixtureReport().scenarios) expect(text).toContain(r.id);
    const statuses = ['PASS', 'FAIL', 'ERROR', 'NOT RUN', 'SKIP'];
    for (const status of statuses) expect(lines.some((line) => line.startsWith(`│ ${status}`))).toBe(true);
    const terse = lines.find((line) => line.includes('refund ok') && line.includes('incomplete'))!;
    expect(terse).toMatch(/FAIL.*terse.*0.*incomplete.*1\/2.*lookup_order x2/);
    expect(text).toContain('lookup_order x1, create_refund x1');
  });

  it('lists each failure with what failed and why the run stopped, and ends with the summary line', async () => {
    const text = await printed();
    expect(text).toContain('FAIL support/refund.scenario.yaml#refund ok [terse #0]\n  ✗ tool_returned#1: create_refund: expected a result <none> & nothing\n');
    expect(text).toContain('ERROR flows/flow.scenarios.yaml#flow crash [base #0]\n  ✗ MODEL_FAILED: script exhausted after 2 turns\n');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '10 runs (6 scenarios, 2 variants, 2 repeats: not every combination): 5 passed (1 as an expected failure), 2 failed, 1 errored, 1 not run, 1 skipped (3.2 s)',
    );
  });

  it('adds the variant comparison and per-tag tables with several variants', async () => {
    const text = await printed();
    expect(text).toMatch(/│ variant │ runs │ passed │ pass rate │/);
    // runs: the 5 rows the pass rate is over (not run and skipped are left out).
    expect(text).toMatch(/│ base\s+│\s+5 │\s+3 │\s+60% │/);
    expect(text).toMatch(/│ smoke │\s+100% \(2\/2\) │\s+50% \(1\/2\) │/);
  });

  it('prints the plain summary with one variant and no repeats', async () => {
    const input = report([row('a.scenario.yaml', 'one', { duration_ms: 12.46 }), row('a.scenario.yaml', 'two', { status: 'fail', reason: 'nope' })], {
      duration_ms: 450,
    });
    const text = await printed(input);
    expect(text).not.toContain('pass rate');
    expect(text).not.toMatch(/│ # │/);
    expect(text).toMatch(/│ PASS\s+│ a\.scenario\.yaml#one\s+│ base\s+│ pass\s+│ 1\/1\s+│ lookup_order x1, create_refund x1 │ 3\s+│ 12 │/);
    expect(text).toContain('FAIL a.scenario.yaml#two [base]\n  ✗ nope\n');
    expect(text.trimEnd().split('\n').at(-1)).toBe('2 scenarios: 1 passed, 1 failed, 0 errored (0.5 s)');
  });

  it('colours statuses only when asked', async () => {
    expect(await printed(fixtureReport(), false)).not.toContain('\u001b[');
    const coloured = await printed(fixtureReport(), true);
    expect(coloured).toContain('\u001b[32mPASS\u001b[39m');
    expect(coloured).toContain('\u001b[31mFAIL\u001b[39m');
    expect(stripAnsi(coloured)).toBe(await printed(fixtureReport(), false));
  });

  it(`shows only non-passing rows past ${TABLE_ROW_LIMIT} rows`, () => {
    const text = renderTableReport(bigReport(10_000), palette(false), { columns: 200 });
    const tableRows = text.split('\n').filter((line) => /^│ (PASS|FAIL)/.test(line));
    expect(tableRows).toHaveLength(100);
    expect(tableRows.every((line) => line.startsWith('│ FAIL'))).toBe(true);
    expect(text).toContain('9900 passing rows omitted (10000 rows: past 200 the table shows only the rows that did not pass; every row is in report.json)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('10000 scenarios: 9900 passed, 100 failed, 0 errored (3.2 s)');
  });

  it('caps the non-passing rows too', () => {
    const text = renderTableReport(bigReport(1000, 2), palette(false), { columns: 200 });
    expect(text.split('\n').filter((line) => line.startsWith('│ FAIL'))).toHaveLength(TABLE_ROW_LIMIT);
    expect(text).toContain('500 passing rows omitted');
    expect(text).toContain('300 more non-passing rows omitted (the table shows at most 200; every row is in report.json)');
    // The failure details say how many they leave out too, as --quiet does.
    expect(text).toContain('300 more failed or errored runs not shown (at most 200 are; every row is in report.json)');
  });

  it('says where every row is, by the report files written: report.json, report.md while it holds them all, else which --reporter', () => {
    const note = (rows: number, files: string[], quiet = false) =>
      renderTableReport(bigReport(rows, quiet ? 2 : 100), palette(false), { columns: 300, files, quiet })
        .split('\n')
        .find((line) => line.includes('omitted') || line.includes('not shown'));
    expect(note(300, ['report.json', 'report.md'])).toContain('; every row is in report.json and report.md)');
    expect(note(300, ['report.md', 'junit.xml'])).toContain('; every row is in report.md)');
    // report.md holds 500 rows at most: past that only report.json does.
    expect(note(600, ['report.md'])).toContain('; for every row, add --reporter json)');
    expect(note(300, [])).toContain('; for every row, add --reporter json (or md))');
    // --quiet details at most 200 failures, and says where the others are.
    expect(note(1000, ['report.json'], true)).toBe('300 more failed or errored runs not shown (at most 200 are; every row is in report.json)');
  });

  it('prints only the summary for an empty run', async () => {
    expect(await printed(report([]))).toBe('0 scenarios: 0 passed, 0 failed, 0 errored (3.2 s)\n');
  });
});
