import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSIDE_RUN_ENV as INSIDE_RUN } from '../../src/engine/inside-run.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { AGENT_YAML, CLI, runCli } from './cli.js';

const INNER = ['test-run', '--agent', 'inner.yaml', '--message', 'hi', '--script', 'inner-script.yaml', '--json'];
/** A test-run whose files do not exist, and a resume of a run that never paused. */
const MISSING = ['test-run', '--agent', 'no-such-build.yaml', '--message', 'hi', '--script', 'no-such-script.yaml', '--json'];
const RESUME = ['resume', 'never-paused', '--decision', 'approve', '--json'];

interface CommandResult {
  exit_code: number;
  stdout: string;
  stderr: string;
}

/**
 * One test-run of the built CLI whose tools start the built CLI three times, each process
 * carrying the AGENTCHECK_INSIDE_RUN the run sets for them: INNER by a command tool, MISSING and
 * RESUME by run_command. Each start's result, by what it ran.
 */
const nested = shared(async (dir) => {
  // The commands run in a copy of ws/, where the inner build and script are.
  const argv = (args: string[]) => JSON.stringify(['node', CLI, ...args]);
  const root = dir({
    'ws/inner.yaml': AGENT_YAML,
    'ws/inner-script.yaml': '- text: inner ran\n',
    'outer.yaml': `id: nest
agent:
  name: Nester
  llm: {provider: scripted, model: s}
  tools:
    - {name: inner_test, description: run agentcheck test-run, parameters: {type: object}, command: {argv: ${argv(INNER)}}}
    - {name: rc, description: run, builtin: run_command}
  commands: {allow: [node]}
`,
    'outer-script.yaml': `- tool_calls: [{name: inner_test, args: {}}, {name: rc, args: {argv: ${argv(MISSING)}}}, {name: rc, args: {argv: ${argv(RESUME)}}}]\n- text: done\n`,
  });
  const outer = await runCli(
    ['test-run', '--agent', 'outer.yaml', '--message', 'go', '--script', 'outer-script.yaml', '--workspace', 'ws', '--spans', 's.jsonl', '--json'],
    root,
  );
  const spans = readFileSync(join(root, 's.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { name: string; attributes: Record<string, unknown> })
    .filter((span) => span.name.startsWith('execute_tool'));
  const started = (span: { name: string; attributes: Record<string, unknown> }) => {
    if (span.name === 'execute_tool inner_test') return 'command tool: test-run';
    const args = String(span.attributes['gen_ai.tool.call.arguments']);
    return args.includes('no-such-build.yaml') ? 'run_command: test-run of missing files' : 'run_command: resume';
  };
  const results = new Map(spans.map((span) => [started(span), JSON.parse(String(span.attributes['gen_ai.tool.call.result'])) as CommandResult]));
  return { outer, results, count: spans.length };
});

const GUARD = 'agentcheck: RECURSION_GUARD: test_run was called from inside a test_run; runs nest at most one level deep';

describe('agentcheck test-run inside a run (the recursion guard)', () => {
  it('refuses a test-run or resume that a command tool or run_command starts: exit 2, stdout empty under --json', async () => {
    const { outer, results, count } = await nested();
    expect(outer.exitCode, outer.stderr).toBe(1);
    expect(count).toBe(3);
    expect([...results.keys()].sort()).toEqual(['command tool: test-run', 'run_command: resume', 'run_command: test-run of missing files']);
    for (const result of results.values()) {
      expect(result).toMatchObject({ exit_code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^agentcheck: RECURSION_GUARD: test_run was called from inside a test_run/);
    }
  });

  it('says so on stderr with exit 2 and an empty stdout when AGENTCHECK_INSIDE_RUN is set', async () => {
    // The variable set in the environment directly, not by a run: the guard reads the process's
    // own environment, so this case is a process of the built CLI of its own (runMain's doc).
    const dir = tempDir({ 'inner.yaml': AGENT_YAML, 'inner-script.yaml': '- text: inner ran\n' });
    const result = await runCli(INNER, dir, { [INSIDE_RUN]: '1' });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^agentcheck: RECURSION_GUARD: test_run was called from inside a test_run/);
  });

  it('refuses before reading any file: a missing agent or an unknown run_id is not named first, only to be refused once fixed', async () => {
    const { results } = await nested();
    for (const started of ['run_command: test-run of missing files', 'run_command: resume']) {
      const result = results.get(started);
      expect(result?.exit_code, started).toBe(2);
      expect(result?.stdout).toBe('');
      // The command's stderr as captured: the one line and its newline.
      expect(result?.stderr).toBe(`${GUARD}\n`);
    }
  });
});
