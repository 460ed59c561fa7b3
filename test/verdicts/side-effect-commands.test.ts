import { describe, expect, it } from 'vitest';
import { buildEvidence } from '../../src/verdicts/evidence.js';
import { runChecks } from '../../src/verdicts/run-checks.js';
import { build, runScripted } from '../helpers/run-agent.js';

const revision = build({
  permissions: { mode: 'ask' },
  commands: { allow: ['ls'] },
  tools: [
    { name: 'delete_order', description: 'Delete.', parameters: { type: 'object' }, returns: { ok: true } },
    { name: 'run_command', builtin: 'run_command' },
    { name: 'write_note', description: 'Write.', permission: 'allow', parameters: { type: 'object' }, returns: { ok: true } },
  ],
});

async function evidenceAfterDeny(then: { name: string; args: unknown }) {
  const { spans } = await runScripted(revision, [{ tool_calls: [{ name: 'delete_order', args: {} }] }, { tool_calls: [then] }, { text: 'done' }], {
    approvals: { default: 'deny' },
  });
  return buildEvidence({ spans });
}

describe('no_side_effect_after_deny and allow-listed commands', () => {
  it('an allow-listed run_command after a deny is not a side effect', async () => {
    const evidence = await evidenceAfterDeny({ name: 'run_command', args: { argv: ['ls'] } });
    expect(evidence.calls.find((call) => call.name === 'run_command')).toMatchObject({ outcome: 'ok', command_allowed: true });
    const [check] = runChecks([{ no_side_effect_after_deny: {} }], evidence);
    expect(check.status, check.reason).toBe('pass');
  });

  it('counts it with count_allowed_commands: true; any other tool still counts', async () => {
    const listed = await evidenceAfterDeny({ name: 'run_command', args: { argv: ['ls'] } });
    expect(runChecks([{ no_side_effect_after_deny: { count_allowed_commands: true } }], listed)[0].status).toBe('fail');
    const write = await evidenceAfterDeny({ name: 'write_note', args: {} });
    expect(runChecks([{ no_side_effect_after_deny: {} }], write)[0].reason).toContain('write_note (not read-only) ran');
  });
});
