import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, passingScenario, ROOT, runCli } from './cli.js';

const EXPECTED = 'expected a folder of regular files, folders and symbolic links';

describe.skipIf(process.platform === 'win32')('a workspace folder holding a file that cannot be copied', () => {
  it('is refused by validate and run at load (exit 2), naming the scenario file, its workspace field and the named pipe', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('copies', 'workspace: ws\n'), 'ws/a.txt': 'a\n' });
    mkdirSync(join(dir, 'ws/sub'));
    const pipe = join(dir, 'ws/sub/pipe');
    execFileSync('mkfifo', [pipe]);
    const problem = `a.scenario.yaml:13:12 at workspace: workspace could not be copied: ${pipe}: it is a named pipe (FIFO), which cannot be copied; ${EXPECTED}`;

    const validated = await runCli(['validate', '.'], dir);
    expect(validated.exitCode, validated.all).toBe(2);
    expect(validated.stdout + validated.stderr).toContain(problem);

    const ran = await runCli(['run', '.', '--out', 'out'], dir);
    expect(ran.exitCode, ran.all).toBe(2);
    expect(ran.stderr).toContain(problem);
    // Nothing ran: no report.
    expect(existsSync(join(dir, 'out/report.json'))).toBe(false);
  });

  it("is said for each file that copies the folder, once for a scenarios file's defaults however many scenarios share it", async () => {
    const scenarios = ['one', 'two', 'three'].map(
      (name) => `  - {name: ${name}, inputs: {messages: [{role: user, content: go}]}, model: {script: [{text: done}]}}`,
    );
    const dir = tempDir({
      'agent.yaml': AGENT_YAML,
      's.scenarios.yaml': ['defaults: {agent: agent.yaml, workspace: ws}', 'scenarios:', ...scenarios].join('\n'),
      'b.scenario.yaml': passingScenario('also copies', 'workspace: ws\n'),
      'ws/a.txt': 'a\n',
    });
    execFileSync('mkfifo', [join(dir, 'ws/pipe')]);
    // A refusal at load as the built CLI's above: the CLI's entry in-process (runMain).
    const validated = await runMain(['validate', '.'], dir);
    expect(validated.exitCode, validated.all).toBe(2);
    const said = (validated.stdout + validated.stderr)
      .split('\n')
      .filter((line) => line.includes('it is a named pipe (FIFO)'))
      .map((line) => line.replace(`${dir}/`, ''));
    expect(said.map((line) => /^(\S+?):\d+:\d+ at (\S+):/.exec(line)?.slice(1, 3).join(' '))).toEqual([
      'b.scenario.yaml workspace',
      's.scenarios.yaml defaults.workspace',
    ]);
  });

  it("test-run --workspace leaves its runs folder and paused runs' files out of the check, as the copy leaves them out", async () => {
    const dir = tempDir({ 'a.txt': 'a\n', 's.yaml': '- text: hi\n' });
    // A pipe in the runs folder (reports/runs without --spans), and in an earlier paused run's workspace elsewhere.
    const artifact = join(dir, 'old', `${'a'.repeat(32)}.workspace`);
    for (const folder of [join(dir, 'reports/runs/sub'), artifact]) {
      mkdirSync(folder, { recursive: true });
      execFileSync('mkfifo', [join(folder, 'pipe')]);
    }
    const result = await runCli(
      ['test-run', '--agent', join(ROOT, 'fixtures/agents/coding-agent.yaml'), '--message', 'w', '--script', 's.yaml', '--workspace', '.'],
      dir,
    );
    // It runs (exit 1 is its verdict: no --terminal-tool to reach), as valid input.
    expect([result.exitCode, result.stderr]).toEqual([1, '']);
  });
});
