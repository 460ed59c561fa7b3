import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';
import { AGENT, checkedByModule, readReport } from './suite-timeout-fixture.js';

// The limit coming while the checks run, apart from the other time-limit files so their waits
// overlap on separate workers.
describe('agentcheck run: a time limit that comes while the checks run', () => {
  it('says when the limit came while the checks ran: the agent had finished, and test_run keeps its own result', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT,
      // The two scripted steps end long before the 8 s limit, however busy the machine; the check
      // settles 2 s after it, within the backstop's 5 s grace, so the row keeps the record.
      'checks/slow.mjs': 'export default function () { return new Promise((done) => setTimeout(() => done({ status: "pass" }), 10000)); }\n',
      'slow.scenario.yaml': checkedByModule('slow'),
    });
    const out = join(dir, 'out');
    const result = await runCli(['run', '.', '--timeout', '8000', '--out', out, '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(1);
    const row = readReport(out).scenarios[0];
    expect(row).toMatchObject({ status: 'error', error: { type: 'TIMEOUT' }, test_run: { stop_reason: 'end_turn' } });
    expect(row.error?.message).toContain('timed out after 8000 ms');
    expect(row.error?.message).toContain("while its checks ran; the agent's run had ended (stop_reason end_turn)");
  }, 120_000);
});
