import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/runner/report/report.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, CLI, passingScenario, runCli } from './cli.js';

describe('robustness through the CLI', () => {
  it('writes the report when interrupted while command tools run', async () => {
    const files: Record<string, string> = {
      'agent.yaml': `id: slow
agent:
  name: Slow
  tools:
    - {name: wait, description: Waits., parameters: {type: object}, command: {argv: [node, -e, "require('fs').writeFileSync(process.argv[1] + '/started-' + process.pid, ''); setTimeout(() => {}, 600000)", __MARKS__]}}
`,
    };
    for (let i = 0; i < 6; i++) {
      files[`s${i}.scenario.yaml`] =
        `name: slow ${i}\nagent: agent.yaml\ninputs: {messages: [{role: user, content: go}]}\nmodel: {script: [{tool_calls: [{name: wait, args: {}}]}, {text: done}]}\n`;
    }
    const marks = tempDir({});
    files['agent.yaml'] = files['agent.yaml'].replace('__MARKS__', JSON.stringify(marks));
    const dir = tempDir(files);
    const child = execa('node', [CLI, 'run', '.', '--concurrency', '2', '--out', 'out', '--reporter', 'json,junit'], {
      cwd: dir,
      reject: false,
      env: { CI: 'true' },
    });
    // Interrupt once a command tool is really running, however slow the machine is.
    await expect.poll(() => readdirSync(marks).length, { timeout: 120_000, interval: 50 }).toBeGreaterThan(0);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')) as Report;
    expect(report.interrupted).toBe(true);
    expect(report.scenarios).toHaveLength(6);
    expect(existsSync(join(dir, 'out/junit.xml'))).toBe(true);
  });

  it('exits 2 with a clear message for folders where files belong and for a bad output folder', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a'), 'sub/x.txt': 'x' });
    const folderAgent = await runCli(['test-run', '--agent', 'sub', '--message', 'hi', '--json'], dir);
    expect(folderAgent.exitCode).toBe(2);
    expect(folderAgent.stderr).toMatch(/sub: is a folder; expected a YAML or JSON file/);
    const folderConfig = await runCli(['run', '.', '--config', 'sub'], dir);
    expect(folderConfig.exitCode).toBe(2);
    expect(folderConfig.stderr).not.toMatch(/unexpected error/);
    const badOut = await runCli(['run', '.', '--out', '/dev/null/reports'], dir);
    expect(badOut.exitCode).toBe(2);
    expect(badOut.stderr).toMatch(/cannot write reports there/);
  });

  it('refuses a timeout Node cannot hold instead of timing out at once', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('a') });
    const result = await runCli(['run', '.', '--timeout', '1e99'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/expected a whole number of ms from 1 to 2147483647/);
  });

  it('refuses a scenario nested absurdly deep with a located error, not an out-of-memory crash', async () => {
    const deep = `${'['.repeat(1000)}1${']'.repeat(1000)}`;
    const scenario = {
      name: 'deep',
      agent: 'agent.yaml',
      inputs: { messages: [{ role: 'user', content: 'go' }] },
      model: { script: [{ tool_calls: [{ name: 'lookup', args: { id: '__DEEP__' } }] }] },
    };
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'deep.scenario.json': JSON.stringify(scenario).replace('"__DEEP__"', deep) });
    const result = await runCli(['validate', '.'], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/deep\.scenario\.json.*nested more than 100 levels deep/);
  });
});
