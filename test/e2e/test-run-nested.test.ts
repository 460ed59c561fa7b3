import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, CLI, runCli } from './cli.js';

const INNER = ['test-run', '--agent', 'inner.yaml', '--message', 'hi', '--script', 'inner-script.yaml', '--json'];

describe('agentcheck test-run inside a run (the recursion guard)', () => {
  it('refuses a test-run that a command tool or run_command starts: exit 2, stdout empty under --json', async () => {
    // The commands run in a copy of ws/, where the inner build and script are.
    const argv = JSON.stringify(['node', CLI, ...INNER]);
    const dir = tempDir({
      'ws/inner.yaml': AGENT_YAML,
      'ws/inner-script.yaml': '- text: inner ran\n',
      'outer.yaml': `id: nest
agent:
  name: Nester
  llm: {provider: scripted, model: s}
  tools:
    - {name: inner_test, description: run agentcheck test-run, parameters: {type: object}, command: {argv: ${argv}}}
    - {name: rc, description: run, builtin: run_command}
  commands: {allow: [node]}
`,
      'outer-script.yaml': `- tool_calls: [{name: inner_test, args: {}}, {name: rc, args: {argv: ${argv}}}]\n- text: done\n`,
    });
    const outer = await runCli(
      ['test-run', '--agent', 'outer.yaml', '--message', 'go', '--script', 'outer-script.yaml', '--workspace', 'ws', '--spans', 's.jsonl', '--json'],
      dir,
    );
    expect(outer.exitCode, outer.stderr).toBe(1);
    const results = readFileSync(join(dir, 's.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; attributes: Record<string, unknown> })
      .filter((span) => span.name.startsWith('execute_tool'))
      .map((span) => JSON.parse(String(span.attributes['gen_ai.tool.call.result'])) as { exit_code: number; stdout: string; stderr: string });
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result).toMatchObject({ exit_code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^agentcheck: RECURSION_GUARD: test_run was called from inside a test_run/);
    }
  });

  it('says so on stderr with exit 2 and an empty stdout when AGENTCHECK_INSIDE_RUN is set', async () => {
    const dir = tempDir({ 'inner.yaml': AGENT_YAML, 'inner-script.yaml': '- text: inner ran\n' });
    const result = await runCli(INNER, dir, { AGENTCHECK_INSIDE_RUN: '1' });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^agentcheck: RECURSION_GUARD: test_run was called from inside a test_run/);
  });

  it('refuses before reading any file: a missing agent or an unknown run_id is not named first, only to be refused once fixed', async () => {
    const dir = tempDir();
    for (const args of [
      ['test-run', '--agent', 'no-such-build.yaml', '--message', 'hi', '--script', 'no-such-script.yaml', '--json'],
      ['resume', 'never-paused', '--decision', 'approve', '--json'],
    ]) {
      const result = await runCli(args, dir, { AGENTCHECK_INSIDE_RUN: '1' });
      expect(result.exitCode, args[0]).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('agentcheck: RECURSION_GUARD: test_run was called from inside a test_run; runs nest at most one level deep');
    }
  });
});
