import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './cli.js';

describe('test-run --spans to a place that cannot be written (built CLI)', () => {
  it('is invalid input before the run, named, without a stack trace', async () => {
    const result = await runCli(
      [
        'test-run',
        '--agent',
        'fixtures/agents/support-bot.yaml',
        '--message',
        'hi',
        '--script',
        'fixtures/test-run/refund-script.yaml',
        '--spans',
        '/dev/null/x/s.jsonl',
        '--json',
      ],
      ROOT,
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('/dev/null/x/s.jsonl: cannot write the spans there');
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(result.stdout).toBe('');
  });
});
