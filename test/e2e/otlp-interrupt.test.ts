import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { AGENT_YAML, CLI, passingScenario } from './cli.js';

const EXPORT_NOTE = 'agentcheck: interrupted while the spans are exported to ';
let receiver: OtlpReceiver | undefined;
let release: () => void = () => {};
let running: ResultPromise | undefined;

afterEach(async () => {
  // A test that failed leaves neither a child nor a held request behind.
  running?.kill('SIGKILL');
  await running;
  release();
  await receiver?.close();
  receiver = undefined;
  running = undefined;
});

/**
 * `run --otlp` against a collector that holds every request until `release()` is called, then
 * answers 400 (an error the exporter does not retry). The export's own time limit is far off, so
 * only the collector's answer or a signal ends the wait.
 */
async function runAgainstHangingCollector() {
  const hold = new Promise<void>((resolve) => (release = resolve));
  receiver = await startOtlpReceiver(400, undefined, hold);
  const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('first'), 'b.scenario.yaml': passingScenario('second') });
  const child = (running = execa('node', [CLI, 'run', '.', '--otlp', receiver.url, '--out', 'out', '--reporter', 'json'], {
    cwd: dir,
    reject: false,
    env: { CI: 'true', OTEL_EXPORTER_OTLP_TIMEOUT: '600000' },
  }));
  return { dir, child };
}

/** Resolves once the child's `stream` holds `text`, or once it exited without it (the assertions after say so). */
function says(child: ResultPromise, stream: 'stdout' | 'stderr', text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    child[stream]?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
    void child.then(() => resolve());
  });
}

describe('agentcheck run --otlp: Ctrl-C while the final export waits for the collector', () => {
  it('a first Ctrl-C lets the export finish: stderr says so, then the warning line, exit 1', async () => {
    const { dir, child } = await runAgainstHangingCollector();
    // The reports line is printed once they are written, in the same synchronous step that starts
    // the wait for the export: the signal is heard during that wait.
    await says(child, 'stdout', 'Reports: out/spans.jsonl, out/report.json');
    child.kill('SIGINT');
    await says(child, 'stderr', EXPORT_NOTE);
    // Only now does the collector answer: a process that had ended at the signal never hears it.
    release();
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toContain(`${EXPORT_NOTE}${receiver!.url}/v1/traces: the reports are written; waiting for the collector`);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('agentcheck: warning: OTLP export'));
    expect(warnings).toEqual([expect.stringMatching(/failed: HTTP 400.* spans were not exported \(the suite result is unaffected\)$/)]);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    expect(report.summary).toMatchObject({ total: 2, passed: 2 });
  });

  it('a second Ctrl-C ends the process by the signal, without the warning line', async () => {
    const { dir, child } = await runAgainstHangingCollector();
    await says(child, 'stdout', 'Reports: out/spans.jsonl, out/report.json');
    child.kill('SIGINT');
    await says(child, 'stderr', EXPORT_NOTE);
    child.kill('SIGINT');
    const result = await child;
    expect(result.signal, result.stderr).toBe('SIGINT');
    expect(result.stderr).not.toContain('warning: OTLP export');
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    expect(report.summary).toMatchObject({ total: 2, passed: 2 });
  });
});
