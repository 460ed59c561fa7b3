import { describe, expect, it } from 'vitest';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { renderTableReport } from '../../../src/runner/reporters/table-reporter.js';
import { computeStats } from '../../../src/runner/stats/compute-stats.js';
import { bigReport, report, row, stripAnsi, testRunResult } from './fixture-report.js';

describe('the terminal table at a narrow width', () => {
  it('wraps the status and verdict before squeezing the scenario id, and never passes the width', () => {
    const long = 'an argument that would be an option is refused before the command runs';
    const rows = [
      row('coding/command-args.scenarios.yaml', long, {
        expect_failure: 'refuses options',
        test_run: testRunResult({ verdict: 'unconfirmed', verdict_reason: 'x' }),
      }),
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

  it('fits every line of every table, the failures and the summary into 40 to 120 columns, with long names and variants', () => {
    const variants = ['base', 'terse-instructions-with-worked-examples', 'strict-permissions-and-lean-toolset'];
    const rows = variants.flatMap((variant) =>
      [0, 1, 2].flatMap((repeat) =>
        ['refund the damaged order', 'b'].map((name, i) =>
          row('support/refunds-and-returns.scenarios.yaml', name, {
            variant,
            repeat,
            tags: ['smoke', 'refunds-and-returns-long-tag-name'],
            expected_tools: ['lookup_order', 'create_refund'],
            ...(variant !== 'base' && (i + repeat) % 2 === 0
              ? {
                  status: 'fail' as const,
                  reason: `verdict failed, expected pass: ${'the refund was never created '.repeat(3)}`,
                  test_run: testRunResult({ verdict: 'failed', tools: [{ name: 'lookup_order_with_a_long_tool_name', called: 3, returned: 3, errors: 0 }] }),
                }
              : {}),
          }),
        ),
      ),
    );
    const r = report(rows, { suite: { ...report(rows).suite, repeat: 3 } });
    r.stats = computeStats(r);
    for (const columns of [40, 60, 80, 100, 120]) {
      for (const color of [false, true]) {
        const text = stripAnsi(renderTableReport(r, palette(color), { columns }));
        for (const line of text.trimEnd().split('\n')) expect(line.length, `${columns} columns: ${line}`).toBeLessThanOrEqual(columns);
        // The comparison keeps the pass rate and the difference from base at every width.
        expect(text, `${columns}`).toMatch(/│ variant/);
        expect(text, `${columns}`).toMatch(/[-+]\d+(\.\d)? pp/);
      }
    }
    // Wide enough, nothing is left out; at 80 the tool-selection columns go, and a note says so.
    expect(stripAnsi(renderTableReport(r, palette(false), { columns: 140 }))).not.toContain('too narrow for');
    const at80 = stripAnsi(renderTableReport(r, palette(false), { columns: 80 }));
    expect(at80.replace(/\n/g, ' ')).toContain(
      '(too narrow for: precision, recall; widen the terminal or set COLUMNS; report.md (--reporter md) has every column)',
    );
    expect(at80).toContain('pass^3');
  });

  it('breaks the pass^k head onto two lines when k has two digits or more, never cutting it at 100 columns', () => {
    for (const k of [12, 300]) {
      const rows = ['base', 'lean'].flatMap((variant) =>
        Array.from({ length: k }, (_, repeat) =>
          row('b.scenarios.yaml', 's1', { variant, repeat, expected_tools: ['t1'], ...(variant === 'lean' ? { status: 'fail' as const } : {}) }),
        ),
      );
      const r = report(rows, { suite: { ...report(rows).suite, repeat: k } });
      r.stats = computeStats(r);
      const text = stripAnsi(renderTableReport(r, palette(false), { columns: 100 }));
      const head = text.split('\n').filter((line) => line.startsWith('│ variant') || line.startsWith('│         │'));
      expect(text, `k=${k}`).not.toContain('pass^…');
      expect(head[0], `k=${k}`).toMatch(/│ pass\^k │/);
      expect(head[1], `k=${k}`).toMatch(new RegExp(`│\\s+k=${k} │`));
      // Wide, it reads on one line.
      if (k === 12) expect(stripAnsi(renderTableReport(r, palette(false), { columns: 200 }))).toMatch(/│ pass\^k k=12 │/);
    }
  });

  it('wraps the notes about omitted rows of a large suite too', () => {
    const text = renderTableReport(bigReport(450, 2), palette(false), { columns: 40 });
    for (const line of text.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(40);
    expect(text.replace(/\n/g, ' ')).toContain('225 passing rows omitted (450 rows: past 200 the table shows only the rows that did not');
    expect(text.replace(/\n/g, ' ')).toContain('25 more non-passing rows omitted');
  });

  it('counts wide characters as two columns: a Japanese id and output fit the width and no character is lost', () => {
    // Terminal columns of the test's text: CJK, fullwidth and emoji take two (checked independently of the code).
    const columnsOf = (text: string) => [...text].reduce((sum, char) => sum + (/[\u3000-\u9fff\uff01-\uff60]|\p{Emoji_Presentation}/u.test(char) ? 2 : 1), 0);
    const output = 'ストは注文を検索して確認してから返金する必要があります 🚀🚀';
    const rows = [
      row('w.scenarios.yaml', '返金リクエスト', {
        status: 'fail',
        reason: `output#0: expected output to contain "${output}${output}"`,
        checks: [{ id: 'output#0', kind: 'output', status: 'fail', evidence: [], reason: `expected output to contain "${output}${output}"` }],
      }),
    ];
    for (const columns of [40, 60, 80, 100]) {
      const text = renderTableReport(report(rows), palette(false), { columns });
      const lines = text.trimEnd().split('\n');
      for (const line of lines) expect(columnsOf(line), `${columns} columns: ${line}`).toBeLessThanOrEqual(columns);
      // The table's scenario cells, read top to bottom, hold the whole id.
      const table = lines.filter((line) => /^│/.test(line));
      expect(table.map((line) => line.split('│')[2].trim()).join(''), `${columns}`).toContain('w.scenarios.yaml#返金リクエスト');
      // The quoted output in the failure details is wrapped, not cut.
      const details = lines.slice(lines.findIndex((line) => line.startsWith('FAIL ')));
      expect(details.join('').replace(/ /g, ''), `${columns}`).toContain(`${output}${output}`.replace(/ /g, ''));
    }
  });
});
