import { readdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { CLI, runCli } from '../e2e/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { mulberry32 } from '../../src/runner/stats/mulberry32.js';

// Suite-level faults through the built CLI: a large suite with injected faults, interrupts,
// and a SIGKILL while the report is being replaced.

const AGENT = `id: bulk
agent:
  name: Bulk
  llm: {provider: scripted, model: s}
  tools:
    - {name: lookup, description: Look up., read_only: true, parameters: {type: object, properties: {id: {type: string}}, required: [id], additionalProperties: false}, returns: {status: ok}}
    - {name: notify, description: Notify., parameters: {type: object, properties: {to: {type: string}}, required: [to]}, http: {method: POST, url: "https://hooks.test/notify", body: {to: "{{ args.to }}"}}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;

type Fault = 'exhausted' | 'http_500' | 'invalid_arg' | 'hang' | 'model_error' | 'unknown_tool' | 'unmatched_http';
const SUITE_SIZE = 100;
const FAULTS: readonly Fault[] = ['exhausted', 'http_500', 'invalid_arg', 'hang', 'model_error', 'unknown_tool', 'unmatched_http'];

/** What each fault must turn into: the row's status and, for errors, its error type. */
const EXPECTED: Record<Fault | 'none', { status: string; error?: string; reason?: RegExp }> = {
  none: { status: 'pass' },
  exhausted: { status: 'error', error: 'SCRIPT_EXHAUSTED' },
  http_500: { status: 'fail', reason: /notify/ },
  invalid_arg: { status: 'fail', reason: /lookup/ },
  hang: { status: 'error', error: 'TIMEOUT' },
  model_error: { status: 'error', error: 'MODEL_REQUEST_REJECTED' },
  unknown_tool: { status: 'fail', reason: /erase_everything/ },
  unmatched_http: { status: 'error', error: 'UNMATCHED_REQUEST' },
};

/** One scenario as YAML list item (indented for `scenarios:`), with `fault` injected. */
function scenarioYaml(name: string, fault: Fault | 'none'): string {
  const lookupArgs = fault === 'invalid_arg' ? '{id: 7}' : '{id: "1"}';
  const steps = [
    `{tool_calls: [{name: ${fault === 'unknown_tool' ? 'erase_everything' : 'lookup'}, args: ${fault === 'unknown_tool' ? '{}' : lookupArgs}}]${fault === 'hang' ? ', delay_ms: 60000' : ''}}`,
    '{tool_calls: [{name: notify, args: {to: ops}}]}',
    fault === 'model_error' ? '{error: {message: "model overloaded", status: 503}}' : '{tool_calls: [{name: finish, args: {}}]}',
  ];
  if (fault !== 'exhausted') steps.push('{text: done}');
  // unmatched_http mocks another URL, so the notify request finds no mock.
  const url = fault === 'unmatched_http' ? 'https://hooks.test/other' : 'https://hooks.test/notify';
  const mock = `[{method: POST, url: "${url}", status: ${fault === 'http_500' ? 500 : 200}, json: {ok: ${fault !== 'http_500'}}}]`;
  return `  - name: ${name}
    model: {${fault === 'unknown_tool' ? 'allow_unknown_tools: true, ' : ''}script: [${steps.join(', ')}]}
    mocks: {http: ${mock}}${fault === 'hang' ? '\n    timeout_ms: 200' : ''}
`;
}

/** `count` scenarios in `files` files; about 10% get a random fault. */
function generateSuite(count: number, files: number, seed: number): { files: Record<string, string>; expected: Map<string, Fault | 'none'> } {
  // Seeded, so the fault placement is the same on every run.
  const random = mulberry32(seed);
  const out: Record<string, string> = { 'agent.yaml': AGENT };
  const expected = new Map<string, Fault | 'none'>();
  const perFile = count / files;
  for (let f = 0; f < files; f++) {
    const file = `bulk-${String(f).padStart(2, '0')}.scenarios.yaml`;
    let yaml = `defaults:
  agent: agent.yaml
  inputs: {messages: [{role: user, content: go}]}
  expect:
    terminal_tool: finish
    checks:
      - tool_called: {tool: lookup, args: {id: "1"}}
      - no_tool_errors: {}
      - output: {contains: done}
scenarios:
`;
    for (let i = 0; i < perFile; i++) {
      const fault: Fault | 'none' = random() < 0.1 ? FAULTS[Math.floor(random() * FAULTS.length)] : 'none';
      const name = `s${f * perFile + i}`;
      expected.set(`${file}#${name}`, fault);
      yaml += scenarioYaml(name, fault);
    }
    out[file] = yaml;
  }
  return { files: out, expected };
}

function readReport(out: string): Report {
  return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}

/** spans.jsonl holds whole lines, and no partial file is left but those of runs killed with SIGKILL. */
function expectValidSpans(out: string, killed: ReadonlyArray<number | undefined> = []): void {
  const lines = readFileSync(join(out, 'spans.jsonl'), 'utf8').split('\n').filter(Boolean);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  const left = readdirSync(out).filter((name) => name.endsWith('.partial'));
  expect(left.filter((name) => !killed.some((pid) => name.startsWith(`.spans.jsonl.${pid}.`)))).toEqual([]);
}

describe('suite faults (built CLI)', () => {
  // 100 scenarios at concurrency 8, 14 of them faulted (each kind at least once, five kinds more
  // than once with this seed), show what 300 did: each of the three runs costs about 4 ms of CPU
  // per scenario beside Node's start. Suites of 1,000 and more are measured by bench/ (npm run
  // bench), never by a timed test.
  it(`gives each of ${SUITE_SIZE} scenarios with ~10% injected faults exactly one row, and survives a SIGKILL while the report is replaced`, async () => {
    const { files, expected } = generateSuite(SUITE_SIZE, 10, 20240619);
    const faults = [...expected.values()].filter((fault) => fault !== 'none');
    expect(faults.length).toBeGreaterThanOrEqual(SUITE_SIZE * 0.05);
    expect(faults.length).toBeLessThanOrEqual(SUITE_SIZE * 0.15);
    expect(new Set(faults).size).toBe(FAULTS.length);

    const dir = tempDir(files);
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--out', out, '--reporter', 'json,junit', '--concurrency', '8'], dir);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).not.toMatch(/unexpected error/);

    const report = readReport(out);
    expect(report.scenarios).toHaveLength(SUITE_SIZE);
    const counts = new Map<string, number>();
    for (const row of report.scenarios) counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...expected.keys()].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);

    const wrong: string[] = [];
    for (const row of report.scenarios) {
      const fault = expected.get(row.id)!;
      const want = EXPECTED[fault];
      const ok =
        row.status === want.status &&
        (want.error === undefined || row.error?.type === want.error) &&
        (want.reason === undefined || want.reason.test(row.reason));
      if (!ok) wrong.push(`${row.id} (${fault}): ${row.status} ${row.error?.type ?? ''} ${row.reason}`);
    }
    expect(wrong).toEqual([]);
    expect(report.summary).toMatchObject({ total: SUITE_SIZE, passed: SUITE_SIZE - faults.length, not_run: 0, skipped: 0 });
    expect(readFileSync(join(out, 'junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(SUITE_SIZE);
    expectValidSpans(out);

    // A second run SIGKILLed mid-run leaves the previous report and spans untouched.
    const before = readFileSync(join(out, 'report.json'), 'utf8');
    const spansBefore = readFileSync(join(out, 'spans.jsonl'), 'utf8');
    const rerun = () =>
      execa('node', [CLI, 'run', '.', '--out', out, '--reporter', 'json', '--concurrency', '8'], { cwd: dir, reject: false, env: { CI: 'true' } });
    const midRun = rerun();
    midRun.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('done,')) midRun.kill('SIGKILL');
    });
    expect((await midRun).signal).toBe('SIGKILL');
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(out, 'spans.jsonl'), 'utf8')).toBe(spansBefore);

    // Another run is SIGKILLed the moment it starts writing report.json: the file must be the
    // old report or a complete new one, never half of one. (The kill usually lands mid-write;
    // when the write wins the race, the new report must be whole.)
    const atWrite = rerun();
    const watcher = watch(out, (_event, name) => {
      if (name && name.startsWith('.report.json.')) atWrite.kill('SIGKILL');
    });
    const killed = await atWrite;
    watcher.close();
    expect(killed.signal === 'SIGKILL' || killed.exitCode === 1, `${killed.signal} ${killed.exitCode}`).toBe(true);
    const after = readFileSync(join(out, 'report.json'), 'utf8');
    const parsed = JSON.parse(after) as Report;
    if (after !== before) {
      expect(parsed.started_at).not.toBe(report.started_at);
      expect(parsed.scenarios).toHaveLength(SUITE_SIZE);
    }
    // The killed runs may leave their own partial spans files (docs/security.md), no other.
    expectValidSpans(out, [midRun.pid, atWrite.pid]);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`writes valid partial reports on ${signal}, one row per scenario`, async () => {
      const files: Record<string, string> = { 'agent.yaml': AGENT };
      let yaml = 'defaults:\n  agent: agent.yaml\n  inputs: {messages: [{role: user, content: go}]}\n  expect: {terminal_tool: finish}\nscenarios:\n';
      for (let i = 0; i < 60; i++) {
        yaml += `  - name: slow ${i}\n    model: {script: [{tool_calls: [{name: finish, args: {}}], delay_ms: 40}, {text: done}]}\n`;
      }
      files['slow.scenarios.yaml'] = yaml;
      const dir = tempDir(files);
      const out = join(dir, 'out');
      const child = execa('node', [CLI, 'run', '.', '--concurrency', '2', '--out', out, '--reporter', 'json,md,junit'], {
        cwd: dir,
        reject: false,
        env: { CI: 'true' },
      });
      // The first plain progress line comes at 10% done: interrupt then, mid-run.
      await new Promise<void>((resolve) => {
        child.stderr?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('done,')) resolve();
        });
      });
      child.kill(signal);
      const result = await child;
      expect(result.exitCode, result.stderr).toBe(1);

      const report = readReport(out);
      expect(report.interrupted).toBe(true);
      expect(report.scenarios).toHaveLength(60);
      expect(new Set(report.scenarios.map((row) => row.id)).size).toBe(60);
      expect(report.summary.passed).toBeGreaterThanOrEqual(6);
      expect(report.summary.not_run).toBeGreaterThan(0);
      expect(report.summary.passed + report.summary.not_run).toBe(60);
      // One testcase per row, and the run's own errored `interrupted` testcase: the file fails as the run did.
      const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
      expect(junit.match(/<testcase /g)).toHaveLength(61);
      expect(junit).toContain(`<error message="The run was interrupted: ${report.summary.not_run} row`);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('interrupted');
      expect(report.scenarios.find((row) => row.status === 'not_run')?.reason).toContain('interrupted');
      expectValidSpans(out);
      // The temporary rows file (docs/report-format.md) is gone after an interrupt too.
      expect(readdirSync(out).sort()).toEqual(['junit.xml', 'report.json', 'report.md', 'spans.jsonl']);
    });
  }
});
