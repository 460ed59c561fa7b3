import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MD_ROW_LIMIT, MdReporter, renderMarkdown } from '../../../src/runner/reporters/md-reporter.js';
import { bigReport, captureStream, fixtureReport, report, row, tempOut } from './fixture-report.js';

describe('MdReporter', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  it('writes OUT/report.md with the title and totals', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    await new MdReporter().onRunEnd(fixtureReport(), { out: out.dir, stdout: captureStream().stream, color: false });
    const md = await readFile(join(out.dir, 'report.md'), 'utf8');
    expect(md.startsWith('# agentcheck: FAILED\n')).toBe(true);
    expect(md).toContain(
      '**10 runs (6 scenarios, 2 variants, 2 repeats: not every combination): 5 passed (1 as an expected failure), 2 failed, 1 errored, 1 not run, 1 skipped (3.2 s)**',
    );
  });

  it('titles a passing merge that misses shards INCOMPLETE, never PASSED, and says which are missing', () => {
    const base = fixtureReport();
    const passing = base.scenarios.filter((row) => row.status === 'pass');
    const report = {
      ...base,
      interrupted: false,
      scenarios: passing,
      summary: { ...base.summary, total: passing.length, passed: passing.length, failed: 0, errored: 0, not_run: 0, skipped: 0 },
      merged: { inputs: [], missing_shards: [2, 3] },
    };
    const md = renderMarkdown(report);
    expect(md.startsWith('# agentcheck: INCOMPLETE\n')).toBe(true);
    expect(md).toMatch(/\(3\.2 s, shards 2, 3 missing\)\*\*/);
    expect(md).toContain('> Merged without shards 2, 3: their scenarios are not in this report.');
    expect(renderMarkdown({ ...report, merged: { inputs: [], missing_shards: [] } }).startsWith('# agentcheck: PASSED\n')).toBe(true);
  });

  it('puts failures and errors first, with their reasons and failed checks', () => {
    const md = renderMarkdown(fixtureReport());
    const failures = md.indexOf('## Failures and errors (3)');
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(md.indexOf('## Variants'));
    expect(md.indexOf('## Variants')).toBeLessThan(md.indexOf('## All rows'));
    const section = md.slice(failures, md.indexOf('## Variants'));
    expect(section).toContain(
      '- **FAIL** support/refund.scenario.yaml#refund ok \\[terse #0\\]: expected &lt;create\\_refund&gt; &amp; "ok" \\| got \'none\'<br>second line red',
    );
    expect(section).toContain('  - fail `tool_returned#1`: create\\_refund: expected a result &lt;none&gt; &amp; nothing');
    expect(section).toContain('- **ERROR** flows/flow.scenarios.yaml#flow crash \\[base #0\\]: script exhausted after 2 turns');
    expect(section).toContain('  - error MODEL\\_FAILED');
    expect(section).toContain('- **FAIL** flows/flow.scenarios.yaml#fixed defect');
    expect(section).not.toContain('NOT RUN');
  });

  it("shows a failed check's id printable, as its reason (no ANSI sequence, bidi override as <U+202E>)", () => {
    const report = fixtureReport();
    const failing = report.scenarios.find((row) => row.status === 'fail')!;
    failing.checks = [{ id: 'red\u001b[31m#\u202e1', kind: 'tool_returned', status: 'fail', reason: 'no', evidence: [] }];
    expect(renderMarkdown(report)).toContain('  - fail `red#<U+202E>1`: no');
  });

  it('keeps a name, check id, error type or stray error with line breaks on its line: no heading or link of its own', () => {
    const inject = 'a\n# agentcheck: PASSED\n[click](https://evil.test)';
    const failing = row('x.scenario.yaml', inject, {
      status: 'error',
      error: { type: `T\n${inject}`, message: 'm' },
      checks: [{ id: `c\n${inject}`, kind: 'custom', status: 'fail', reason: 'no', evidence: [] }],
    });
    const md = renderMarkdown(report([failing], { stray_errors: { count: 1, first: `Error: ${inject}` } }));
    const lines = md.split('\n');
    expect(lines.filter((line) => /^\s*#/.test(line))).toEqual(['# agentcheck: FAILED', '## Failures and errors (1)', '## All rows']);
    // Outside code spans, where Markdown would make it a link.
    expect(lines.filter((line) => line.replace(/`[^`]*`/g, '').includes('[click]('))).toEqual([]);
    const escaped = 'a<br># agentcheck: PASSED<br>\\[click\\](https://evil.test)';
    expect(md).toContain(`- **ERROR** x.scenario.yaml#${escaped} \\[base\\]: T<br>${escaped}: m`);
    expect(md).toContain(`  - error T<br>${escaped}`);
    expect(md).toContain('  - fail `c a # agentcheck: PASSED [click](https://evil.test)`: no');
    expect(md).toContain(`: Error: ${escaped}`);
    expect(md).toContain(`| ERROR | x.scenario.yaml#${escaped} |`);
  });

  it('keeps table rows on one line with | and newlines escaped', () => {
    const md = renderMarkdown(fixtureReport());
    const table = md
      .slice(md.indexOf('## All rows'))
      .split('\n')
      .filter((line) => line.startsWith('|'));
    expect(table).toHaveLength(2 + 10);
    const columns = (line: string) => line.split(/(?<!\\)\|/).length;
    for (const line of table) expect(columns(line)).toBe(columns(table[0]));
    expect(table.find((line) => line.includes('demonstrates defect'))).toMatch(/^\| PASS \(expected failure\) \|/);
    expect(table[2]).toBe('| PASS | support/refund.scenario.yaml#refund ok | base | 0 | pass | 1/1 | lookup\\_order x1, create\\_refund x1 | 3 | 12 |');
  });

  it('escapes the verdict cell as every other cell (a resumed tool name)', () => {
    const report = fixtureReport();
    report.scenarios[0].resumes = [{ tool: 'write_file', decision: 'approve' }];
    const md = renderMarkdown(report);
    expect(md).toContain('| pass (resumed write\\_file: approve) |');
  });

  it('shows per-variant and per-tag pass rates with several variants', () => {
    const md = renderMarkdown(fixtureReport());
    // base: 7 rows, 5 ran to a result (not run and skipped are left out, runs too), 3 passed.
    expect(md).toContain('| base | 5 | 3 | 60% |');
    expect(md).toContain('| terse | 3 | 2 | 66.7% |');
    expect(md).toContain('| smoke | 100% (2/2) | 50% (1/2) |');
    expect(md).toContain('| flow | 0% (0/1) | 100% (1/1) |');
  });

  it("stays under GitHub's 1 MiB summary limit however long the failures' reasons are", () => {
    const long = 'x'.repeat(1500);
    const base = bigReport(230, 1);
    const rows = base.scenarios.map((row) => ({
      ...row,
      id: `${row.id}${'n'.repeat(300)}`,
      reason: long,
      checks: Array.from({ length: 25 }, (_, i) => ({ id: `output#${i}`, kind: 'output', status: 'fail' as const, reason: `${i}-${long}`, evidence: [] })),
    }));
    const md = renderMarkdown({ ...base, scenarios: rows });
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThan(1_048_576);
    const listed = md.split('\n').filter((line) => line.startsWith('- **FAIL**')).length;
    expect(listed).toBeGreaterThan(10);
    expect(md).toContain(`_${230 - listed} more failures and errors are in report.json._`);
  });

  it('omits the variants section with one variant and caps the rows table', () => {
    const md = renderMarkdown(bigReport(MD_ROW_LIMIT + 100));
    expect(md).not.toContain('## Variants');
    expect(md.split('\n').filter((line) => line.startsWith('| PASS') || line.startsWith('| FAIL'))).toHaveLength(MD_ROW_LIMIT);
    expect(md).toContain(`_Showing the first ${MD_ROW_LIMIT} of ${MD_ROW_LIMIT + 100} rows; report.json holds them all._`);
    expect(md).toContain('# agentcheck: FAILED');
  });
});

describe('MdReporter: where the rows it leaves out are', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  it('names report.json only when the command writes it, else the reporter that would', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    await new MdReporter().onRunEnd(bigReport(MD_ROW_LIMIT + 100), { out: out.dir, stdout: captureStream().stream, color: false, files: ['report.md'] });
    const md = await readFile(join(out.dir, 'report.md'), 'utf8');
    expect(md).toContain(`_Showing the first ${MD_ROW_LIMIT} of ${MD_ROW_LIMIT + 100} rows; report.json (written with --reporter json) holds them all._`);
    await new MdReporter().onRunEnd(bigReport(MD_ROW_LIMIT + 100), {
      out: out.dir,
      stdout: captureStream().stream,
      color: false,
      files: ['report.md', 'report.json'],
    });
    expect(await readFile(join(out.dir, 'report.md'), 'utf8')).toContain('rows; report.json holds them all._');
  });
});

describe('MdReporter on an interrupted run', () => {
  it('says so in the title, the note and the totals', () => {
    const input = fixtureReport();
    input.interrupted = true;
    input.scenarios = input.scenarios.filter((r) => r.status !== 'fail' && r.status !== 'error');
    input.summary = { ...input.summary, total: input.scenarios.length, failed: 0, errored: 0 };
    const md = renderMarkdown(input);
    expect(md.startsWith('# agentcheck: INTERRUPTED\n')).toBe(true);
    expect(md).toContain('> The run was interrupted: rows it did not reach are marked NOT RUN.');
    expect(md).toContain(', interrupted)**');
    expect(md).not.toContain('## Failures and errors');
  });
});
