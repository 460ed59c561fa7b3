import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, CLI } from './cli.js';

const WRITING_NOTE = 'agentcheck: interrupted while the reports are written: finishing them first';
const GIVEN_UP = 'agentcheck: the reports could not be finished';

/**
 * `run` over `count` scenarios (100 ms each) on GitHub Actions, whose job summary, the last report
 * written, goes to a named pipe: agentcheck waits at it until the test opens its other end, so a
 * signal sent then surely comes after the runs, while the reports are written. The out folder
 * holds an earlier run's files.
 */
function runWithPipedSummary(count: number) {
  const files: Record<string, string> = { 'agent.yaml': AGENT_YAML, 'out/report.json': '{"earlier": true}\n', 'out/spans.jsonl': '{"earlier": true}\n' };
  for (let i = 0; i < count; i++) {
    files[`s${String(i).padStart(2, '0')}.scenario.yaml`] =
      `name: slow ${i}\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{text: done, delay_ms: 100}]}\n`;
  }
  const dir = tempDir(files);
  const summary = join(dir, 'summary.md');
  execFileSync('mkfifo', [summary]);
  const child = execa('node', [CLI, 'run', '.', '--concurrency', '1', '--out', 'out', '--reporter', 'json'], {
    cwd: dir,
    reject: false,
    env: { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
  });
  return { dir, summary, child };
}

/**
 * Resolves once agentcheck opens the job summary pipe: the runs are over, spans.jsonl and
 * report.json written. Each probe opens the writing end for a moment, which lets agentcheck's
 * look at the summary's last byte go on; it then waits to append, until a reader comes.
 */
async function summaryReached(pipe: string): Promise<void> {
  await expect.poll(() => openWriter(pipe), { timeout: 120_000, interval: 50 }).toBe(true);
}

/** Opens and closes the writing end of `pipe` when a reader has it open (else ENXIO): whether one had. */
function openWriter(pipe: string): boolean {
  try {
    closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the child's stderr holds `text`, or once it exited without it (the assertions after say so). */
function stderrSays(child: ResultPromise, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
    void child.then(() => resolve());
  });
}

describe('agentcheck run: a signal while the reports are written', () => {
  it('a second Ctrl-C after the runs ended lets the reports finish: report.json and spans.jsonl are the new ones, no temp file, exit 1', async () => {
    const { dir, summary, child } = runWithPipedSummary(60);
    // The first plain progress line (every 10% of 60 runs) proves some runs finished; the first
    // Ctrl-C stops the rest.
    await stderrSays(child, 'done,');
    child.kill('SIGINT');
    await summaryReached(summary);
    child.kill('SIGINT');
    await stderrSays(child, WRITING_NOTE);
    // The summary pipe gets its reader: agentcheck appends the job summary and goes on.
    const jobSummary = readFile(summary, 'utf8');
    const result = await child;
    // Had agentcheck never opened the pipe, the reader would wait for ever: a writer ends it.
    openWriter(summary);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toContain(WRITING_NOTE);
    expect(result.stderr).not.toContain(GIVEN_UP);
    expect(await jobSummary).toContain('INTERRUPTED');
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    expect(report.interrupted).toBe(true);
    expect(report.scenarios).toHaveLength(60);
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(report.summary.not_run).toBeGreaterThan(0);
    expect(report.summary.passed + report.summary.not_run).toBe(60);
    // spans.jsonl is this run's, complete: a line per span, the traces of the rows that ran.
    const traces = new Set(
      readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { trace_id: string }).trace_id),
    );
    const ran = report.scenarios.filter((row) => row.status === 'pass').map((row) => row.test_run?.trace_id);
    for (const trace of ran) expect(traces).toContain(trace);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['report.json', 'spans.jsonl']);
    // The line naming the reports, printed once they are written.
    expect(result.stdout).toContain('Reports: out/spans.jsonl, out/report.json');
  });

  it('a report that hangs is given up on at a further signal: the process ends by it', async () => {
    const { dir, summary, child } = runWithPipedSummary(2);
    await summaryReached(summary);
    // Nobody reads the summary pipe: the job summary hangs.
    child.kill('SIGINT');
    await stderrSays(child, WRITING_NOTE);
    child.kill('SIGINT');
    const result = await child;
    expect(result.signal, result.stderr).toBe('SIGINT');
    expect(result.stderr).toContain(`${GIVEN_UP} (another signal came while they were written)`);
    // What was written before the hang stays: spans.jsonl and report.json are this run's.
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    expect(report.summary).toMatchObject({ total: 2, passed: 2 });
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).not.toContain('earlier');
  });

  it('a report that hangs is given up on 5 s after the one signal: the process ends by it', async () => {
    const { summary, child } = runWithPipedSummary(1);
    await summaryReached(summary);
    child.kill('SIGINT');
    const result = await child;
    expect(result.signal, result.stderr).toBe('SIGINT');
    expect(result.stderr).toContain(WRITING_NOTE);
    expect(result.stderr).toContain(`${GIVEN_UP} (they were still being written 5 s after the interrupt)`);
  });
});
