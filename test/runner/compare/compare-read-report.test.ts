import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/runner/commands/cli-io.js';
import { compareCommand } from '../../../src/runner/commands/compare-command.js';
import { summarize } from '../../../src/runner/report/report.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { captureStream, report, row } from '../reporters/fixture-report.js';

async function compare(dir: string, base = 'base.json', head = 'head.json') {
  const stdout = captureStream();
  const stderr = captureStream();
  const io: CommandIO = { stdout: stdout.stream, stderr: stderr.stream, cwd: dir, env: {}, isTTY: false };
  const exitCode = await compareCommand(base, head, {}, io);
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

/** A folder with a good base.json and a head.json whose first row is `bad` (summary kept consistent). */
function withHeadRow(bad: unknown): string {
  const good = report([row('a.scenario.yaml', 'a'), row('a.scenario.yaml', 'b')]);
  const head = JSON.parse(JSON.stringify(good)) as { scenarios: unknown[] };
  head.scenarios[0] = bad;
  return tempDir({ 'base.json': JSON.stringify(good, null, 2), 'head.json': JSON.stringify(head, null, 2) });
}

describe('agentcheck compare: reading the reports', () => {
  const base = row('a.scenario.yaml', 'a');
  const cases: Array<[string, unknown, RegExp]> = [
    ['a null row', null, /expected a scenario row \{id, variant, repeat, status, checks, test_run, \.\.\.\}, got null/],
    ['a row without id', { ...base, id: undefined }, /expected id to be a non-empty string/],
    ['a numeric id', { ...base, id: 7 }, /expected id to be a non-empty string \(file#name\), got 7/],
    ['a null variant', { ...base, variant: null }, /expected variant to be a non-empty string, got null/],
    ['checks that are not a list', { ...base, checks: 'x' }, /expected checks to be a list of \{id, kind, status, reason\}, got "x"/],
    ['an unknown status', { ...base, status: 'bogus' }, /expected status to be one of pass, fail, error, not_run, skipped, got "bogus"/],
    [
      'a check with an unknown status',
      { ...base, checks: [{ id: 'c#0', kind: 'c', status: 'meh', reason: '' }] },
      /expected checks\[0\]\.status to be one of pass, fail, error, got "meh"/,
    ],
    ['a test_run that is not an object', { ...base, test_run: 'yes' }, /expected test_run to be a test_run object or null, got "yes"/],
    ['a test_run without tools', { ...base, test_run: { verdict: 'pass' } }, /expected test_run\.tools to be a list/],
  ];
  for (const [what, bad, message] of cases) {
    it(`refuses ${what} with a located error and exit 2`, async () => {
      const result = await compare(withHeadRow(bad));
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^agentcheck: invalid input: head\.json:\d+:\d+ at scenarios\[0\]: /);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/unexpected error|TypeError| {4}at /);
      expect(result.stdout).toBe('');
    });
  }

  it('does not count a bogus status as a regression', async () => {
    const result = await compare(withHeadRow({ ...base, status: 'bogus' }));
    expect(result.exitCode).toBe(2);
    expect(result.stdout).not.toContain('regressed');
  });

  it('refuses a summary that does not count the rows', async () => {
    const good = report([row('a.scenario.yaml', 'a'), row('a.scenario.yaml', 'b')]);
    const lost = { ...good, scenarios: [] };
    const dir = tempDir({ 'base.json': JSON.stringify(good), 'head.json': JSON.stringify(lost) });
    const result = await compare(dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('head.json');
    expect(result.stderr).toMatch(/summary\.total is 2 but the report has 0 scenario row\(s\)/);
  });

  it('says a folder is a folder and a missing report is missing', async () => {
    const good = report([row('a.scenario.yaml', 'a')]);
    const dir = tempDir({ 'base.json': JSON.stringify(good) });
    mkdirSync(join(dir, 'folder'));
    const folder = await compare(dir, 'base.json', 'folder');
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toContain('folder: is a folder; expected a report.json file');
    const missing = await compare(dir, 'base.json', 'nope.json');
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope.json: report not found');
  });

  it.skipIf(process.getuid?.() === 0)('says an unreadable report cannot be read (permission denied), not that it is invalid JSON', async () => {
    const good = report([row('a.scenario.yaml', 'a')]);
    const dir = tempDir({ 'base.json': JSON.stringify(good), 'head.json': JSON.stringify(good) });
    chmodSync(join(dir, 'head.json'), 0o000);
    const result = await compare(dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('head.json: cannot be read: permission denied');
    expect(result.stderr).not.toContain('not valid JSON');
  });

  it('accepts a report saved with a byte order mark and compares valid reports as before', async () => {
    const before = report([row('a.scenario.yaml', 'a'), row('a.scenario.yaml', 'b')]);
    const rows = [row('a.scenario.yaml', 'a'), row('a.scenario.yaml', 'b', { status: 'fail', reason: 'no' })];
    const after = { ...before, scenarios: rows, summary: summarize(rows) };
    const dir = tempDir({ 'base.json': `\uFEFF${JSON.stringify(before)}`, 'head.json': JSON.stringify(after) });
    const result = await compare(dir);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stdout).toContain('regressed (1):\n  a.scenario.yaml#b [base]: pass -> fail\n    no\n');
  });

  it("shows the head row's reason under each regression, on one line and cut, and whole in --json", async () => {
    const before = report([row('a.scenario.yaml', 'a'), row('a.scenario.yaml', 'a', { repeat: 1 })]);
    const long = `tool_called#0: expected lookup_order\ncalled, saw ${'x'.repeat(500)}`;
    const rows = [row('a.scenario.yaml', 'a'), row('a.scenario.yaml', 'a', { repeat: 1, status: 'fail', reason: long })];
    const after = { ...before, scenarios: rows, summary: summarize(rows) };
    const dir = tempDir({ 'base.json': JSON.stringify(before), 'head.json': JSON.stringify(after) });
    const result = await compare(dir);
    expect(result.exitCode).toBe(1);
    const reasonLine = result.stdout.split('\n')[2];
    expect(reasonLine.startsWith('    tool_called#0: expected lookup_order called, saw xxx')).toBe(true);
    expect(reasonLine.trim()).toHaveLength(300);
    const stdout = captureStream();
    const io: CommandIO = { stdout: stdout.stream, stderr: captureStream().stream, cwd: dir, env: {}, isTTY: false };
    await compareCommand('base.json', 'head.json', { json: true }, io);
    expect(JSON.parse(stdout.text()).regressed[0].head_reason).toBe(long);
  });

  it('exits 1 and says so when the head shares none of the base results (another root, an empty shard); some rows vanishing alone is exit 0', async () => {
    const before = report([row('scenarios/a.scenario.yaml', 'a'), row('scenarios/a.scenario.yaml', 'b')]);
    const moved = [row('a.scenario.yaml', 'a'), row('a.scenario.yaml', 'b')];
    const dir = tempDir({
      'base.json': JSON.stringify(before),
      'head.json': JSON.stringify({ ...before, scenarios: moved, summary: summarize(moved) }),
      'empty.json': JSON.stringify({ ...before, scenarios: [], summary: summarize([]) }),
      'part.json': JSON.stringify({ ...before, scenarios: before.scenarios.slice(0, 1), summary: summarize(before.scenarios.slice(0, 1)) }),
    });
    const unrelated = await compare(dir);
    expect(unrelated.exitCode).toBe(1);
    expect(unrelated.stderr).toContain('agentcheck: head.json shares no scenario x variant with base.json, so nothing was compared (exit 1)');
    expect(unrelated.stdout).toContain('0 regressed, 0 improved, 2 appeared, 2 vanished, 0 unchanged');
    expect((await compare(dir, 'base.json', 'empty.json')).exitCode).toBe(1);
    const part = await compare(dir, 'base.json', 'part.json');
    expect(part.exitCode, part.stderr).toBe(0);
    expect(part.stderr).toBe('');
    // Two empty reports: nothing lost, nothing to say.
    expect((await compare(dir, 'empty.json', 'empty.json')).exitCode).toBe(0);
    const stdout = captureStream();
    const io: CommandIO = { stdout: stdout.stream, stderr: captureStream().stream, cwd: dir, env: {}, isTTY: false };
    expect(await compareCommand('base.json', 'head.json', { json: true }, io)).toBe(1);
    expect(JSON.parse(stdout.text())).toMatchObject({ nothing_shared: true, regressed: [], vanished: [{}, {}] });
  });
});
