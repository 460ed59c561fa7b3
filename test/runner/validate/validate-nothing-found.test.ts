import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/runner/commands/cli-io.js';
import { validateCommand } from '../../../src/runner/commands/validate-command.js';
import { validateFiles } from '../../../src/runner/validate/validate-files.js';
import { AGENT_YAML, passingScenario } from '../../e2e/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { captureStream } from '../reporters/fixture-report.js';

async function validate(dir: string, paths: string[], options: { config?: string } = {}) {
  const stdout = captureStream();
  const stderr = captureStream();
  const io: CommandIO = { stdout: stdout.stream, stderr: stderr.stream, cwd: dir, env: {}, isTTY: false };
  const exitCode = await validateCommand(paths, options, io);
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

const KNOWN = '(agent builds, *.scenario(s).yaml, SKILL.md, agentcheck.config.yaml)';

describe('agentcheck validate on paths without agentcheck files', () => {
  it('exits 2 for an empty folder, as run does, instead of "ok: 0 ..."', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'empty'));
    const result = await validate(dir, ['empty']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`agentcheck: invalid input: empty: no agentcheck files found under empty ${KNOWN}\n`);
    expect(result.stdout).toBe('');
  });

  it('exits 2 when nothing there is recognised (other YAML, JSON, text), also for the current folder', async () => {
    const dir = tempDir({ 'notes.txt': 'hello', 'ci.yaml': 'on: push\n', 'package.json': '{"name": "x"}', 'data/other.yaml': 'id: 3\nkind: x\n' });
    const result = await validate(dir, []);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`no agentcheck files found under . ${KNOWN}`);
    await expect(validateFiles(['data'], {}, dir)).rejects.toThrow(`no agentcheck files found under data ${KNOWN}`);
  });

  it('counts --config in the summary, once even when the folder holds it too', async () => {
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      'a.scenario.yaml': passingScenario('a'),
      'agentcheck.config.yaml': 'repeat: 2\n',
      'ci/suite.yaml': 'repeat: 3\n',
    });
    const withConfig = await validate(dir, ['.'], { config: 'ci/suite.yaml' });
    expect(withConfig.exitCode, withConfig.stderr).toBe(0);
    expect(withConfig.stdout).toBe('agentcheck validate: ok: 1 agent build(s), 1 scenario file(s) with 1 scenario(s), 0 skill(s), 2 config(s)\n');
    const same = await validate(dir, ['.'], { config: 'agentcheck.config.yaml' });
    expect(same.stdout).toContain('1 config(s)');
    const none = await validate(dir, ['.']);
    expect(none.stdout).toContain('1 config(s)');
  });

  it('with --config, still refuses paths that hold nothing', async () => {
    const dir = tempDir({ 'agentcheck.config.yaml': 'repeat: 2\n' });
    mkdirSync(join(dir, 'empty'));
    const result = await validate(dir, ['empty'], { config: 'agentcheck.config.yaml' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no agentcheck files found under empty');
    expect((await validate(dir, ['.'], { config: 'agentcheck.config.yaml' })).exitCode).toBe(0);
  });
});
