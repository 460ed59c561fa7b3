import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { CLI } from '../e2e/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { isRunning } from '../helpers/process-state.js';

// The real CLI with real child processes: an interrupt while a command runs, and the runner's
// own keys out of reach of the commands it starts.

function agent(argv: string[]): string {
  return `id: proc-bot
agent:
  name: Proc bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: shell, description: Run., parameters: {type: object}, command: {argv: ${JSON.stringify(argv)}}}
    - {name: finish, description: Finish., parameters: {type: object}, returns: {done: true}}
`;
}

const SCENARIO = `name: runs a command
agent: agent.yaml
inputs: {messages: [{role: user, content: go}]}
model:
  script:
    - tool_calls: [{name: shell, args: {}}]
    - tool_calls: [{name: finish, args: {}}]
    - text: done
expect: {terminal_tool: finish}
`;

async function until(condition: () => boolean, deadlineMs = 100_000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('processes of a CLI run', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} with a command in flight: the row is not_run, exit 1, and the command's tree is gone`, async () => {
      const dir = tempDir();
      const pidFile = join(dir, 'sleep.pid');
      const files = tempDir({
        'agent.yaml': agent(['sh', '-c', `sleep 300 & echo $! > ${pidFile}; wait; true`]),
        'a.scenario.yaml': SCENARIO,
      });
      const out = join(files, 'out');
      const child = execa('node', [CLI, 'run', '.', '--out', out, '--reporter', 'json'], { cwd: files, reject: false, env: { CI: 'true' } });
      expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '')).toBe(true);
      const sleeper = Number(readFileSync(pidFile, 'utf8'));
      child.kill(signal);
      const result = await child;
      expect(result.exitCode, result.stderr).toBe(1);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      expect(report.interrupted).toBe(true);
      expect(report.scenarios.map((row) => row.status)).toEqual(['not_run']);
      expect(await until(() => !isRunning(sleeper))).toBe(true);
    });
  }

  it("a command cannot read the runner's keys from /proc/<pid>/environ", async () => {
    const dir = tempDir();
    const dump = join(dir, 'environ.txt');
    const files = tempDir({
      // Outside the workspace on purpose: the file is not a run output, so no redaction applies.
      'agent.yaml': agent(['sh', '-c', `cat /proc/$PPID/environ > ${dump}; cat /proc/[0-9]*/environ >> ${dump} 2>/dev/null; true`]),
      'a.scenario.yaml': SCENARIO,
    });
    const secret = 'sk-proc-environ-secret-0123456789';
    const result = await execa('node', [CLI, 'run', '.', '--out', join(files, 'out'), '--reporter', 'json'], {
      cwd: files,
      reject: false,
      env: { CI: 'true', OPENAI_API_KEY: secret, SHOP_TOKEN: `${secret}-shop`, PLAIN_SETTING: 'visible-value' },
    });
    expect(result.exitCode, result.all ?? result.stderr).toBe(0);
    const seen = readFileSync(dump, 'latin1');
    // The runner's environ was read (its ordinary variables are there) but the keys are masked.
    expect(seen).toContain('PLAIN_SETTING=visible-value');
    expect(seen).toContain('OPENAI_API_KEY=*');
    expect(seen).not.toContain(secret);
  });
});
