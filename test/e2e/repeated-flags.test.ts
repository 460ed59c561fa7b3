import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';

const testRun = ['test-run', '--agent', 'fixtures/agents/support-bot.yaml', '--script', 'fixtures/test-run/refund-script.yaml'];

describe('a single-value flag given twice (built CLI)', () => {
  it('is invalid input naming the flag and its first value, never a silent last-wins', async () => {
    const delta = await runCli([...testRun, '--message', 'hi', '--delta', 'a.yaml', '--delta', 'b.yaml'], ROOT);
    expect(delta.exitCode).toBe(2);
    expect(delta.stderr).toContain('--delta is given twice (first "a.yaml"); give it once');
    const message = await runCli([...testRun, '--message', 'first', '--message', 'second', '--json'], ROOT);
    expect(message.exitCode).toBe(2);
    expect(message.stdout).toBe('');
    const decision = await runCli(['resume', 'run-x', '--decision', 'approve', '--decision', 'deny'], ROOT);
    expect(decision.exitCode).toBe(2);
    expect(decision.stderr).toContain('--decision is given twice (first "approve")');
    const out = await runCli(['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--out', tempDir(), '--out', tempDir()], ROOT);
    expect(out.exitCode).toBe(2);
    expect(out.stderr).toContain('--out is given twice');
    // A flag parsed into an object or a number still quotes the text the user typed.
    const shard = await runCli(['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--shard', '1/2', '--shard', '2/2'], ROOT);
    expect(shard.exitCode).toBe(2);
    expect(shard.stderr).toContain('--shard is given twice (first "1/2"); give it once');
    const repeat = await runCli(['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--repeat', ' 3', '--repeat', '2'], ROOT);
    expect(repeat.exitCode).toBe(2);
    expect(repeat.stderr).toContain('--repeat is given twice (first " 3"); give it once');
  });

  it('leaves the list flags repeatable', async () => {
    const dir = tempDir();
    const run = await runCli(
      ['run', 'scenarios/workflows/file-report-plan.scenarios.yaml', '--out', dir, '--reporter', 'json', '--reporter', 'md', '--tag', 'plan', '--tag', 'x'],
      ROOT,
    );
    expect(run.exitCode, run.all).toBe(0);
    const tokens = await runCli([...testRun, '--message', 'Refund order 1234, it arrived broken.', '--error-token', 'a', '--error-token', 'b', '--json'], ROOT);
    expect(tokens.exitCode, tokens.all).not.toBe(2);
  });
});
