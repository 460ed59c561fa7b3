import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { waitForFile } from '../helpers/process-state.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, runCli } from './cli.js';

// Timers a custom check leaves behind (docs/custom-checks.md, "An error no code awaits"): whenever
// one throws, the run says it in agentcheck's words, never with Node's stack trace, and stderr and
// the reports agree on what the reports hold. These tests never depend on when a timer fires.

const DURING = 'agentcheck: an error no code awaited was thrown during the run';
const LATE = 'agentcheck: an error no code awaited was thrown after the runs, once the reports were being written';

interface StrayReport {
  summary: { total: number; passed: number };
  stray_errors?: { count: number; first: string };
}

function readReport(dir: string): StrayReport {
  return JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as StrayReport;
}

/** Node's own report of an uncaught error: its stack frames, one a line, and its version. */
function expectNoNodeCrash(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain('Node.js v');
}

describe('custom check timers that throw late (end to end)', () => {
  it('a timer that throws once the reports are written is said apart, in agentcheck words, and fails the run; stderr counts what the reports hold as they do', async () => {
    // Rejected during the run; the timer throws only once report.json is there (polled a few
    // hundred ms at a time), then marks it: the collector below answers only after that.
    const late = `import { existsSync, writeFileSync } from 'node:fs';
const report = new URL('../out/report.json', import.meta.url);
export default function () {
  Promise.reject(new Error('forgot to await'));
  const poll = () => {
    if (!existsSync(report)) return void setTimeout(poll, 200);
    writeFileSync(new URL('../thrown', import.meta.url), '');
    throw new Error('timer boom');
  };
  setTimeout(poll, 200);
  return {status: 'pass', reason: 'ok'};
}
`;
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/late.mjs': late,
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/late.mjs}'),
    });
    // The OTLP export is waited for after the reports: held until the timer has thrown, it keeps
    // agentcheck there, however slow the machine.
    const receiver = await startOtlpReceiver(200, undefined, waitForFile(join(dir, 'thrown')));
    try {
      const result = await runCli(['run', '.', '--otlp', receiver.url, '--out', 'out', '--reporter', 'json,junit,md'], dir, {
        OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
      });
      expect(result.exitCode, result.all).toBe(1);
      expectNoNodeCrash(result.stderr);
      // The reports hold the rejection alone, and stderr's line for them counts the same.
      expect(readReport(dir).stray_errors).toEqual({ count: 1, first: expect.stringMatching(/^Error: forgot to await \(at default /) });
      expect(result.stderr).toMatch(new RegExp(`^${DURING} .*so the run fails though its rows may pass: Error: forgot to await \\(at default `, 'm'));
      expect(result.stderr).not.toContain('in all');
      // The timer's error, in no report, has a line of its own.
      expect(result.stderr).toMatch(
        new RegExp(
          `^${LATE} \\(a custom check's timer\\?\\), so the run fails though no report says so: Error: timer boom \\(at .*late\\.mjs:\\d+:\\d+\\)\\)$`,
          'm',
        ),
      );
      expect(readFileSync(join(dir, 'out', 'report.md'), 'utf8')).toMatch(/^# agentcheck: FAILED\n/);
      expect(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')).toMatch(/<testsuites name="agentcheck" tests="2" failures="0" errors="1" /);
      expect(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')).not.toContain('timer boom');
    } finally {
      await receiver.close();
    }
  });

  it('ends once the reports are written, not waiting for a timer or an interval a custom check left pending', async () => {
    // Without the end, the interval would hold the process forever and the timer throw in 10 min.
    const pending = `export default function () {
  setTimeout(() => { throw new Error('timer boom'); }, 600000);
  setInterval(() => {}, 300);
  return {status: 'pass', reason: 'ok'};
}
`;
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/pending.mjs': pending,
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/pending.mjs}'),
    });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json,md'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(result.stderr).toBe('');
    expect(readReport(dir)).not.toHaveProperty('stray_errors');
    expect(readFileSync(join(dir, 'out', 'report.md'), 'utf8')).toMatch(/^# agentcheck: PASSED\n/);
  });

  it.each([
    ['5 ms, beside an unawaited rejection', "Promise.reject(new Error('forgot to await')); setTimeout(() => { throw new Error('timer boom'); }, 5);"],
    ['300 ms', "setTimeout(() => { throw new Error('timer boom'); }, 300);"],
  ])('a timer of %s: wherever it lands, no Node crash, and stderr, the reports and the exit code agree', async (_name, body) => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'checks/stray.mjs': `export default function () { ${body} return {status: 'pass', reason: 'ok'}; }\n`,
      'a.scenario.yaml': passingScenario('a', '    - custom: {module: checks/stray.mjs}'),
    });
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json,junit,md'], dir);
    expectNoNodeCrash(result.stderr);
    // The timer throws during the run (in the reports), after them (a line of its own), or not
    // before agentcheck ends (never): which one depends on the machine, the agreement does not.
    const count = readReport(dir).stray_errors?.count ?? 0;
    const during = result.stderr.split('\n').filter((line) => line.startsWith(DURING));
    expect(during).toEqual(count ? [expect.stringContaining(count > 1 ? `(${count} in all; the first:)` : 'rows may pass: Error: ')] : []);
    const late = result.stderr.split('\n').filter((line) => line.startsWith(LATE));
    expect(late).toEqual(late.length ? [expect.stringContaining(': Error: timer boom (at ')] : []);
    if (body.includes('forgot')) expect(count).toBeGreaterThanOrEqual(1);
    expect(count + late.length).toBeLessThanOrEqual(body.includes('forgot') ? 2 : 1);
    expect(readFileSync(join(dir, 'out', 'report.md'), 'utf8')).toMatch(count ? /^# agentcheck: FAILED\n/ : /^# agentcheck: PASSED\n/);
    expect(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')).toContain(`errors="${count ? 1 : 0}"`);
    expect(result.exitCode, result.all).toBe(count || late.length ? 1 : 0);
  });
});
