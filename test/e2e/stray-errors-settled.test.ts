import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli.js';

// Runs in a node process of its own: vitest's worker takes any unhandled rejection as a failure
// of the suite, and this test makes two on purpose. The module is the build's (npm run build).
const PROBE = `
const { catchStrayErrors } = await import(process.argv[1]);
const redactor = { text: (text) => text, value: (value) => value };
// Sealed at once: Node has not told the rejection yet, so the reports would miss it.
const early = catchStrayErrors();
Promise.reject(new Error('one'));
const sealedAtOnce = early.sealForReports(redactor)?.count ?? 0;
await early.settled();
const late = early.message(redactor);
early.stop();
// Sealed after settled(): the rejection is among the errors the reports hold.
const waited = catchStrayErrors();
Promise.reject(new Error('two'));
await waited.settled();
const sealedAfter = waited.sealForReports(redactor);
waited.stop();
console.log(JSON.stringify({ sealedAtOnce, late, sealedAfter }));
`;

describe('stray errors: settled() (src/runner/commands/stray-errors.ts)', () => {
  it('waits until Node has told a rejection made just before, so the reports hold it rather than stderr alone', async () => {
    const module = join(ROOT, 'dist/src/runner/commands/stray-errors.js');
    const result = await execa('node', ['--input-type=module', '-e', PROBE, module], { reject: false });
    // A rejection told after stop() would end the process with Node's own report.
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const seen = JSON.parse(result.stdout) as { sealedAtOnce: number; late: string | undefined; sealedAfter: { count: number; first: string } | undefined };
    // Without the wait the rejection would come too late for the reports: said on stderr apart.
    expect(seen.sealedAtOnce).toBe(0);
    expect(seen.late).toMatch(/^agentcheck: an error no code awaited was thrown after the runs, [^\n]*Error: one \(at /);
    expect(seen.sealedAfter).toEqual({ count: 1, first: expect.stringMatching(/^Error: two \(at /) });
  });
});
