import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli } from './cli.js';

describe('agentcheck validate on external agent builds', () => {
  it('says "agent" and "external" clash before the incomplete agent block, and finds a missing ./ command file', async () => {
    const dir = tempDir({
      'both.yaml': 'id: both\nagent: {instructions: hi}\nexternal: {command: [node, ./agent.mjs]}\n',
      'agent.mjs': '',
      'missing.yaml': 'id: missing\nexternal:\n  command: [node, ./missing.mjs]\n',
      'good.yaml': 'id: good\nexternal:\n  command: [node, ./agent.mjs]\n',
    });
    const result = await runCli(['validate', '.'], dir);
    expect(result.exitCode, result.all).toBe(2);
    expect(result.all).toMatch(/both\.yaml:2:1 at agent: "agent" and "external" cannot both be given: a build names exactly one of "agent" \(with an optional "flow"\) and "external"/);
    expect(result.all).not.toContain('agent.name');
    expect(result.all).toContain(`missing.yaml:3:19 at external.command[1]: "./missing.mjs" does not exist: ./ and ../ paths of a command are relative to the build file's folder, so expected a file at ${dir}/missing.mjs`);
    expect(result.all).toContain('2 problem(s) in 2 file(s); valid: 1 agent build(s)');
  });
});
