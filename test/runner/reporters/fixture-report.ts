import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { summarize, type Report, type ScenarioRow } from '../../../src/runner/report/report.js';
import type { TestRunResult } from '../../../src/runner/test-run.js';

/** The awkward reason every reporter must carry intact: markup, quotes, a pipe, a newline, ESC. */
export const NASTY_REASON = 'expected <create_refund> & "ok" | got \'none\'\nsecond line \u001b[31mred\u001b[39m';

/** A TestRunResult with sensible defaults. */
export function testRunResult(overrides: Partial<TestRunResult> = {}): TestRunResult {
  return {
    output: 'Refund created.',
    tools: [
      { name: 'lookup_order', called: 1, returned: 1, errors: 0 },
      { name: 'create_refund', called: 1, returned: 1, errors: 0 },
    ],
    approvals: [],
    resolved: {
      harness: 'agentcheck/0.1.0',
      provider: 'scripted',
      model: 'script',
      parameters: {},
      max_turns: 8,
      permissions_mode: 'allow',
      tools: [],
      commands: { allow: [] },
      skills: [],
      skills_delivery: 'inline',
      skills_not_delivered: [],
      revision_id: 'support-bot',
      revision_hash: 'abc',
      delta_hash: null,
    },
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    stop_reason: 'end_turn',
    verdict: 'pass',
    verdict_reason: 'create_refund was called and returned a result',
    ...overrides,
  };
}

/** A passing row of `file#name`; override anything. */
export function row(file: string, name: string, overrides: Partial<ScenarioRow> = {}): ScenarioRow {
  return {
    id: `${file}#${name}`,
    name,
    file: join('/work/project', file),
    variant: 'base',
    repeat: 0,
    tags: [],
    status: 'pass',
    reason: '',
    test_run: testRunResult(),
    checks: [{ id: 'tool_called#0', kind: 'tool_called', status: 'pass', reason: 'lookup_order called 1 time', evidence: ['s1'] }],
    turns: 3,
    duration_ms: 12,
    error: null,
    ...overrides,
  };
}

/** A report around `rows`, summary computed. */
export function report(rows: ScenarioRow[], overrides: Partial<Report> = {}): Report {
  const variants = [...new Set(rows.map((r) => r.variant))];
  return {
    schema: 'agentcheck.report/1',
    started_at: '2025-01-02T03:04:05.000Z',
    duration_ms: 3210,
    interrupted: false,
    suite: { paths: ['scenarios'], config: null, variants, repeat: 1, concurrency: 4, shard: null, grep: null, harness: 'agentcheck/0.1.0' },
    summary: summarize(rows),
    scenarios: rows,
    ...overrides,
  };
}

/** Shard `index`/`total` of a suite, one passing row of a.scenario.yaml per name: what `run --shard` writes, for merge tests. */
export function shardReport(index: number, total: number, names: string[], overrides: Partial<Report> & { paths?: string[] } = {}): Report {
  const { paths = ['scenarios'], ...fields } = overrides;
  return report(
    names.map((name) => row('a.scenario.yaml', name)),
    {
      ...fields,
      suite: {
        paths,
        config: null,
        variants: ['base'],
        repeat: 1,
        concurrency: 4,
        shard: { index, total },
        grep: null,
        harness: 'agentcheck/0.1.0',
        fingerprint: 'f00d',
      },
    },
  );
}

/**
 * Every status, two variants, repeats, an expected failure, an unexpected pass and the nasty
 * reason. Two scenario files.
 */
export function fixtureReport(): Report {
  const refund = 'support/refund.scenario.yaml';
  const flows = 'flows/flow.scenarios.yaml';
  const rows: ScenarioRow[] = [
    row(refund, 'refund ok', { tags: ['smoke'] }),
    row(refund, 'refund ok', { tags: ['smoke'], repeat: 1 }),
    row(refund, 'refund ok', {
      tags: ['smoke'],
      variant: 'terse',
      status: 'fail',
      reason: NASTY_REASON,
      test_run: testRunResult({
        verdict: 'incomplete',
        verdict_reason: 'create_refund was never called',
        tools: [{ name: 'lookup_order', called: 2, returned: 2, errors: 0 }],
      }),
      checks: [
        { id: 'tool_called#0', kind: 'tool_called', status: 'pass', reason: 'lookup_order called', evidence: [] },
        { id: 'tool_returned#1', kind: 'tool_returned', status: 'fail', reason: 'create_refund: expected a result <none> & nothing', evidence: [] },
      ],
    }),
    row(refund, 'refund ok', { tags: ['smoke'], variant: 'terse', repeat: 1 }),
    row(flows, 'flow crash', {
      tags: ['flow'],
      status: 'error',
      reason: 'script exhausted after 2 turns',
      test_run: null,
      checks: [],
      turns: 2,
      error: { type: 'MODEL_FAILED', message: 'script exhausted after 2 turns' },
    }),
    row(flows, 'flow crash', { tags: ['flow'], variant: 'terse' }),
    row(flows, 'not reached', { status: 'not_run', reason: 'not run: the suite was interrupted', test_run: null, checks: [], turns: 0 }),
    row(flows, 'skipped one', { status: 'skipped', reason: 'skipped (flaky upstream)', test_run: null, checks: [], turns: 0 }),
    row(flows, 'demonstrates defect', { expect_failure: 'refunds twice', reason: 'expected failure: tool_called#0 failed' }),
    row(flows, 'fixed defect', { expect_failure: 'refunds twice', status: 'fail', reason: 'unexpected pass: every check passed' }),
  ];
  return report(rows, { suite: { ...report(rows).suite, variants: ['base', 'terse'], repeat: 2 } });
}

/** `n` rows, every `failEvery`-th one failing, one variant. */
export function bigReport(n: number, failEvery = 100): Report {
  const rows = Array.from({ length: n }, (_, i) =>
    i % failEvery === 0 ? row('big.scenarios.yaml', `case ${i}`, { status: 'fail', reason: `case ${i} failed` }) : row('big.scenarios.yaml', `case ${i}`),
  );
  return report(rows);
}

/** A fresh temp folder and its cleanup. */
export async function tempOut(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentcheck-reporters-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A writable stream that keeps what was written. */
export function captureStream(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** Removes ANSI colour codes. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex -- ESC is exactly what this strips
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
