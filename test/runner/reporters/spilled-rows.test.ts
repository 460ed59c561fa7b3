import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RowCompactor } from '../../../src/runner/report/compact-row.js';
import { buildReport } from '../../../src/runner/report/build-report.js';
import { reportJsonChunks } from '../../../src/runner/report/report-json-chunks.js';
import type { Report, ScenarioRow } from '../../../src/runner/report/report.js';
import { RowSpill } from '../../../src/runner/report/row-spill.js';
import { palette } from '../../../src/runner/reporters/format/ansi.js';
import { JsonReporter } from '../../../src/runner/reporters/json-reporter.js';
import { renderTableReport } from '../../../src/runner/reporters/table-reporter.js';
import { bigReport, captureStream, fixtureReport, tempOut } from './fixture-report.js';

const whole = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `report` rebuilt the way agentcheck run builds it: summary and statistics from `rows`. */
function rebuilt(report: Report, rows: ScenarioRow[]): Report {
  return buildReport({
    selection: { paths: report.suite.paths, config: report.suite.config, cwd: '/work/project' },
    variants: report.suite.variants,
    repeat: report.suite.repeat,
    contentHash: 'c0ffee',
    concurrency: report.suite.concurrency,
    rows,
    startedAt: new Date(report.started_at),
    durationMs: report.duration_ms,
    interrupted: report.interrupted,
  });
}

/** A report with transcripts and awkward text in its rows, as spilled rows must carry them. */
function awkwardReport(): Report {
  const input = fixtureReport();
  input.scenarios.forEach((row, i) => {
    row.transcript = [
      { role: 'user', content: `case ${i}: line one\nline "two"\t\u2028 €𝄞` },
      { role: 'assistant', content: '', tool_calls: [{ tool_call_id: `c${i}`, tool_name: 'lookup_order', input: { id: String(i) } }] },
    ];
  });
  return rebuilt(input, input.scenarios);
}

describe('rows spilled to a temporary file (agentcheck run)', () => {
  let cleanup: () => Promise<void> = async () => {};
  afterEach(() => cleanup());

  it('gives every row back in plan order, whatever order they were written in, as report.json needs them', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const input = awkwardReport();
    const rows = input.scenarios;
    const spill = new RowSpill(out.dir, rows.length);
    expect(spill.path).toMatch(new RegExp(`/\\.report-rows\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`));
    // Runs finish out of order: odd positions first, then even ones backwards.
    const order = [...rows.keys()].sort((a, b) => (a % 2) - (b % 2) || (a % 2 ? a - b : b - a)).reverse();
    for (const index of order) spill.write(rows[index], index);
    expect(JSON.parse(JSON.stringify([...spill]))).toEqual(JSON.parse(JSON.stringify(rows)));
    // Read again for a second streaming reporter: the same rows.
    expect([...spill].map((row) => row.id)).toEqual(rows.map((row) => row.id));

    const compactor = new RowCompactor();
    const compact = { ...input, scenarios: rows.map((row) => compactor.compact(row)) };
    expect([...reportJsonChunks(compact, spill.texts())].join('')).toBe(whole(input));
    await new JsonReporter().onRunEnd(compact, { out: out.dir, stdout: captureStream().stream, color: false, wholeRows: spill });
    expect(await readFile(join(out.dir, 'report.json'), 'utf8')).toBe(whole(input));

    expect(spill.remove()).toBeNull();
    expect(spill.remove()).toBeNull();
    expect(existsSync(spill.path)).toBe(false);
    expect(readdirSync(out.dir)).toEqual(['report.json']);
    expect(() => [...spill]).toThrow(/already removed/);
  });

  it('reads back many rows larger than one read block, and an empty suite', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const input = bigReport(3000, 7);
    for (const row of input.scenarios) row.reason = row.reason || 'x'.repeat(700);
    const spill = new RowSpill(out.dir, input.scenarios.length);
    input.scenarios.forEach((row, index) => spill.write(row, index));
    expect([...reportJsonChunks(input, spill.texts())].join('')).toBe(whole(input));
    spill.remove();

    const empty = new RowSpill(out.dir, 0);
    const none = { ...input, scenarios: [] };
    expect([...reportJsonChunks(none, empty.texts())].join('')).toBe(whole(none));
    empty.remove();
  });

  it('refuses to give rows back when one never arrived, naming it', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const rows = bigReport(3).scenarios;
    const spill = new RowSpill(out.dir, 3);
    spill.write(rows[0], 0);
    spill.write(rows[2], 2);
    expect(() => [...spill]).toThrow(/row 1 of 3 never reached the temporary rows file/);
    spill.remove();
  });

  it('is removed without throwing when its folder was replaced by a file: nothing can be left there', async () => {
    const out = await tempOut();
    cleanup = out.cleanup;
    const spill = new RowSpill(out.dir, 1);
    spill.write(bigReport(1).scenarios[0], 0);
    rmSync(out.dir, { recursive: true });
    writeFileSync(out.dir, 'not a folder\n');
    expect(spill.remove()).toBeNull();
  });
});

describe('compact rows', () => {
  it('give the same summary, statistics and terminal table as whole rows', () => {
    for (const input of [awkwardReport(), bigReport(250, 7), bigReport(20, 3)]) {
      const compactor = new RowCompactor();
      const compact = rebuilt(
        input,
        input.scenarios.map((row) => compactor.compact(structuredClone(row))),
      );
      const full = rebuilt(input, input.scenarios);
      expect(compact.summary).toEqual(full.summary);
      expect(compact.stats).toEqual(full.stats);
      for (const layout of [{}, { quiet: true }, { columns: 60 }]) {
        expect(renderTableReport(compact, palette(false), layout)).toBe(renderTableReport(full, palette(false), layout));
      }
    }
  });

  it('keep rows that did not pass whole, and drop what passing rows need not keep', () => {
    const input = awkwardReport();
    const compactor = new RowCompactor();
    const compact = input.scenarios.map((row) => compactor.compact(row));
    input.scenarios.forEach((row, i) => {
      if (row.status !== 'pass') {
        expect(compact[i]).toBe(row);
        return;
      }
      expect(compact[i].transcript).toBeUndefined();
      expect(compact[i].checks.every((check) => check.reason === '' && check.evidence.length === 0)).toBe(true);
      expect(compact[i].test_run?.output).toBe('');
    });
    const passing = compact.filter((row) => row.status === 'pass');
    // Alike parts are one frozen copy shared by every row that has them.
    expect(passing[1].test_run?.resolved).toBe(passing[0].test_run?.resolved);
    expect(Object.isFrozen(passing[0].test_run?.tools)).toBe(true);
  });
});
