import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/runner/commands/cli-io.js';
import { mergeCommand } from '../../../src/runner/commands/merge-command.js';
import { readShardReport } from '../../../src/runner/merge/read-shard-report.js';
import type { Report } from '../../../src/runner/report/report.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { captureStream, shardReport } from '../reporters/fixture-report.js';

function shard(index: number, total: number, names: string[]): Report {
  return shardReport(index, total, names, { paths: ['.'] });
}

async function merge(dir: string, files: string[], reporter = 'json') {
  const stdout = captureStream();
  const stderr = captureStream();
  const io: CommandIO = { stdout: stdout.stream, stderr: stderr.stream, cwd: dir, env: {}, isTTY: false };
  const exitCode = await mergeCommand(files, { out: 'merged', reporter }, io);
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

/** s1.json (valid) and s2.json (edited by `edit`), two shards of one suite. */
function shards(edit: (report: any) => void): string {
  const second = shard(2, 2, ['c', 'd']);
  edit(second);
  return tempDir({ 's1.json': JSON.stringify(shard(1, 2, ['a', 'b']), null, 2), 's2.json': JSON.stringify(second, null, 2) });
}

describe('agentcheck merge: shard contents are validated', () => {
  it('merges two valid shards with exit 0 (the baseline)', async () => {
    const result = await merge(
      shards(() => {}),
      ['s1.json', 's2.json'],
    );
    expect(result.exitCode, result.stderr).toBe(0);
  });

  const cases: Array<[string, (report: any) => void, RegExp]> = [
    [
      'a status outside pass|fail|error|not_run|skipped',
      (r) => {
        r.scenarios[1].status = 'passed';
      },
      /s2\.json:\d+:\d+ at scenarios\[1\]: expected status to be one of pass, fail, error, not_run, skipped, got "passed"/,
    ],
    [
      'checks that are not a list',
      (r) => {
        r.scenarios[0].checks = { id: 'x' };
      },
      /s2\.json:\d+:\d+ at scenarios\[0\]: expected checks to be a list of \{id, kind, status, reason\}/,
    ],
    [
      'a check without a reason',
      (r) => {
        delete r.scenarios[0].checks[0].reason;
      },
      /at scenarios\[0\]: expected checks\[0\]\.reason to be a string, got nothing/,
    ],
    [
      'a test_run that is neither an object nor null',
      (r) => {
        r.scenarios[0].test_run = 5;
      },
      /at scenarios\[0\]: expected test_run to be a test_run object or null, got 5/,
    ],
    [
      "a flow's step calls that are not a list of {name, called}",
      (r) => {
        r.scenarios[0].flow_calls = { echo: 1 };
      },
      /at scenarios\[0\]: expected flow_calls to be a list of \{name, called\}, got \{"echo":1\}/,
    ],
    [
      "a tool's calls by server that are not {server: count}",
      (r) => {
        r.scenarios[0].test_run.tools = [{ name: 'write_note', called: 1, returned: 1, errors: 0, servers: { a: 'one' } }];
      },
      /at scenarios\[0\]: expected test_run\.tools\[0\]\.servers to be \{server: count\}, got \{"a":"one"\}/,
    ],
    [
      'a no_choices flag that is not true (the statistics read it)',
      (r) => {
        r.scenarios[0].no_choices = 'yes';
      },
      /at scenarios\[0\]: expected no_choices to be true when present, got "yes"/,
    ],
    [
      'rows lost while summary.total says 2',
      (r) => {
        r.scenarios = [];
      },
      /s2\.json:\d+:\d+ at summary\.total: summary\.total is 2 but the report has 0 scenario row\(s\)/,
    ],
    [
      'a summary whose counts disagree with the rows',
      (r) => {
        r.scenarios[0].status = 'fail';
      },
      /s2\.json:\d+:\d+ at summary\.passed: summary\.passed is 2 but 1 row\(s\) have status pass/,
    ],
  ];
  for (const [what, edit, message] of cases) {
    it(`refuses ${what} (exit 2, nothing written)`, async () => {
      const dir = shards(edit);
      const result = await merge(dir, ['s1.json', 's2.json'], 'json,md');
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(existsSync(join(dir, 'merged/report.json'))).toBe(false);
    });
  }

  it('exits 2 on a file nested thousands of levels deep, naming it, without a stack overflow', async () => {
    const dir = tempDir({ 's1.json': JSON.stringify(shard(1, 2, ['a', 'b'])), 'deep.json': `{"schema": ${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
    const result = await merge(dir, ['s1.json', 'deep.json']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('deep.json at schema');
    expect(result.stderr).toContain('is nested more than 1000 levels deep: not an agentcheck report.json');
    expect(result.stderr).not.toMatch(/Maximum call stack|unexpected error/);
  });

  it('exits 1 when an input shard was interrupted, and says so', async () => {
    const dir = shards((r) => {
      r.interrupted = true;
    });
    const result = await merge(dir, ['s1.json', 's2.json']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/a shard was interrupted: s2\.json/);
    expect(JSON.parse(readFileSync(join(dir, 'merged/report.json'), 'utf8')).interrupted).toBe(true);
  });

  it('exits 1 when an input shard had errors no code awaited, and the merged report fails with them', async () => {
    const dir = shards((r) => {
      r.stray_errors = { count: 2, first: 'Error: forgot to await (at default (file:///c.mjs:2:3))' };
    });
    const result = await merge(dir, ['s1.json', 's2.json'], 'json,md');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('agentcheck: a shard had errors no code awaited: s2.json');
    expect(JSON.parse(readFileSync(join(dir, 'merged/report.json'), 'utf8')).stray_errors).toEqual({
      count: 2,
      first: 'Error: forgot to await (at default (file:///c.mjs:2:3))',
    });
    expect(readFileSync(join(dir, 'merged/report.md'), 'utf8')).toMatch(
      /^# agentcheck: FAILED\n\n\*\*4 scenarios: 4 passed, 0 failed, 0 errored, 2 stray errors/,
    );
  });

  it('refuses a stray_errors that is not {count, first}', async () => {
    const dir = shards((r) => {
      r.stray_errors = { count: 0, first: 'x' };
    });
    const result = await merge(dir, ['s1.json', 's2.json']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('at stray_errors: expected {count: a whole number >= 1, first: a string}');
  });

  it('exits 1 when a requested reporter fails, naming it', async () => {
    const dir = shards(() => {});
    mkdirSync(join(dir, 'merged/report.md'), { recursive: true }); // a folder where report.md must go
    const result = await merge(dir, ['s1.json', 's2.json'], 'json,md');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`could not write ${join(dir, 'merged/report.md')}: `);
    expect(existsSync(join(dir, 'merged/report.json'))).toBe(true);
  });

  it('exits 2 when --out cannot be created, without a stack trace', async () => {
    const dir = shards(() => {});
    writeFileSync(join(dir, 'merged'), 'a file, not a folder');
    const result = await merge(dir, ['s1.json', 's2.json']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^agentcheck: invalid input: --out merged: \S*merged is a file, not a folder\n$/);
  });

  it('readShardReport keeps a valid shard as written', () => {
    const dir = shards(() => {});
    expect(readShardReport('s2.json', dir).report.scenarios.map((r) => r.name)).toEqual(['c', 'd']);
  });
});
