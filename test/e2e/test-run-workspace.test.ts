import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';

const AGENT = join(ROOT, 'fixtures/agents/coding-agent.yaml');

/** runCli, or runMainFull for a run that only leaves a paused run behind for the one after it. */
type Runner = (args: string[], cwd: string) => Promise<{ exitCode?: number; stdout: string; stderr: string }>;

describe('agentcheck test-run --workspace', () => {
  it('never copies its own runs folder into the workspace: checkpoints stay out of sight and copies do not nest', async () => {
    const dir = tempDir({ 'a.txt': 'hi\n' });
    // Run 2 reads run 1's checkpoint (not in its copy), then writes (gated: the run pauses).
    const script = (checkpoint: string) =>
      `- tool_calls: [{name: read_file, args: {path: ${JSON.stringify(checkpoint)}}}]\n- tool_calls: [{name: write_file, args: {path: b.txt, content: new}}]\n- text: Wrote b.txt.\n`;
    const run = async (checkpoint: string, cli: Runner = runCli) => {
      const result = await cli(
        ['test-run', '--agent', AGENT, '--message', 'w', '--script', '-', '--workspace', '.', '--terminal-tool', 'write_file', '--json'].map((arg) =>
          arg === '-' ? join(tempDir({ 's.yaml': script(checkpoint) }), 's.yaml') : arg,
        ),
        dir,
      );
      expect(result.exitCode, result.stderr).toBe(1);
      return JSON.parse(result.stdout) as { run_id: string; tools: unknown[] };
    };
    // Run 1 in-process (runMainFull): it only leaves a paused run behind; the built CLI makes run 2.
    const first = await run('a.txt', runMainFull);
    const second = await run(`reports/runs/${first.run_id}.checkpoint.json`);
    expect(second.tools).toContainEqual({ name: 'read_file', called: 1, returned: 0, errors: 1 });
    for (const id of [first.run_id, second.run_id]) {
      const copy = join(dir, 'reports/runs', `${id}.workspace`);
      expect(existsSync(join(copy, 'reports/runs')), id).toBe(false);
      expect(readdirSync(copy).filter((name) => name !== 'reports')).toEqual(['a.txt']);
    }
    expect(readdirSync(join(dir, 'reports/runs')).sort()).toEqual(
      [`${first.run_id}.checkpoint.json`, `${first.run_id}.workspace`, `${second.run_id}.checkpoint.json`, `${second.run_id}.workspace`].sort(),
    );
    // The folder itself gains nothing but the runs folder.
    expect(readdirSync(dir).sort()).toEqual(['a.txt', 'reports']);
  });

  it('refuses the runs folder itself as --workspace, which would gain checkpoints, but not a folder in it', async () => {
    const dir = tempDir({ 'reports/runs/sub/a.txt': 'hi\n', 'out/x.txt': 'x\n', 's.yaml': '- text: hi\n' });
    // (A --spans file's folder as --workspace is refused as --spans inside the workspace.) Refused
    // at load: the CLI's entry in-process (runMain); the built CLI refuses a workspace holding TMPDIR below.
    const result = await runMain(['test-run', '--agent', AGENT, '--message', 'w', '--script', 's.yaml', '--workspace', 'reports/runs'], dir);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      "--workspace: reports/runs is agentcheck's runs folder, where a paused run's checkpoint and workspace are kept (reports/runs without --spans): give another folder",
    );
    // It runs (exit 1 is its verdict: no --terminal-tool to reach), as valid input. In-process
    // (runMainFull): what is refused is the command's logic; the built CLI runs test-run to exit 1
    // in the tests beside this one.
    const inside = await runMainFull(['test-run', '--agent', AGENT, '--message', 'w', '--script', 's.yaml', '--workspace', 'reports/runs/sub'], dir);
    expect([inside.exitCode, inside.stderr]).toEqual([1, '']);
  });

  it("leaves an earlier runs folder's paused runs out of the copy too, wherever they lie (another --spans folder's)", async () => {
    const dir = tempDir({ 'ws/a.txt': 'hi\n' });
    const script = (path: string) =>
      join(
        tempDir({
          's.yaml': `- tool_calls: [{name: list_dir, args: {path: ${path}}}]\n- tool_calls: [{name: write_file, args: {path: b.txt, content: new}}]\n- text: ok\n`,
        }),
        's.yaml',
      );
    const run = async (cwd: string, workspace: string, path: string, spans: string[]) => {
      const result = await runMainFull(
        [
          'test-run',
          '--agent',
          AGENT,
          '--message',
          'w',
          '--script',
          script(path),
          '--workspace',
          workspace,
          ...spans,
          '--terminal-tool',
          'write_file',
          '--json',
        ],
        cwd,
      );
      expect(result.exitCode, result.stderr).toBe(1);
      return JSON.parse(result.stdout) as { run_id: string };
    };
    // Run 1 from inside ws keeps its paused run in ws/reports/runs; run 2 keeps its own in out/,
    // outside ws, and lists what its copy of ws holds there. Both in-process (runMainFull): what a
    // copy leaves out is the command's logic; the built CLI leaves a runs folder out in the first test.
    const first = await run(join(dir, 'ws'), '.', '.', []);
    expect(readdirSync(join(dir, 'ws/reports/runs')).sort()).toEqual([`${first.run_id}.checkpoint.json`, `${first.run_id}.workspace`]);
    await run(dir, 'ws', 'reports/runs', ['--spans', 'out/s.jsonl']);
    // Read from the spans file (`spans query` has tests of its own).
    const listed = readFileSync(join(dir, 'out/s.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((span) => span.name === 'execute_tool list_dir');
    expect(listed.attributes['gen_ai.tool.call.result']).toBe('[]');
  });

  /**
   * A workspace holding a temporary folder, run with TMPDIR elsewhere and --spans beside it, so
   * that its runs folder holds the workspace: read by the test of the TMPDIR refusal's way out and
   * by the test of a runs folder holding the workspace.
   */
  const tmpDirElsewhere = shared(async (makeDir) => {
    const dir = realpathSync(
      makeDir({ 'wst/tmp/.keep': '', 'wst/a.txt': 'hi\n', 's.yaml': '- tool_calls: [{name: read_file, args: {path: a.txt}}]\n- text: read\n' }),
    );
    const args = [
      'test-run',
      '--agent',
      AGENT,
      '--message',
      'r',
      '--script',
      's.yaml',
      '--workspace',
      'wst',
      '--spans',
      'spans.jsonl',
      '--terminal-tool',
      'read_file',
      '--json',
    ];
    return runCli(args, dir, { TMPDIR: makeDir() });
  });

  it('copies the whole folder when the runs folder holds it rather than lies inside it', async () => {
    const result = await tmpDirElsewhere();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).tools).toEqual([{ name: 'read_file', called: 1, returned: 1, errors: 0 }]);
  });

  it('refuses a folder that holds the temporary folder its copy is made in, as invalid input before the run', async () => {
    const dir = realpathSync(tempDir({ 'wst/tmp/.keep': '', 'wst/a.txt': 'hi\n', 's.yaml': '- text: hi\n' }));
    const run = (workspace: string, env: Record<string, string> = {}) =>
      runCli(['test-run', '--agent', AGENT, '--message', 'r', '--script', 's.yaml', '--workspace', workspace, '--json'], dir, env);
    const hint = 'where its copy is made (a folder cannot be copied into itself); give a narrower folder, or set TMPDIR to a folder outside it';
    const inTmp = await run('wst', { TMPDIR: join(dir, 'wst/tmp') });
    expect([inTmp.exitCode, inTmp.stdout]).toEqual([2, '']);
    expect(inTmp.stderr).toContain(
      `--workspace: workspace ${join(dir, 'wst')} cannot be copied: it holds the temporary folder ${join(dir, 'wst/tmp')}, ${hint}`,
    );
    // Nothing was copied there: the temporary folder holds what it held.
    expect(readdirSync(join(dir, 'wst/tmp'))).toEqual(['.keep']);
    // Refused at load as the one above: the CLI's entry in-process (runMain), whose temporary folder is the test's.
    const root = await runMain(['test-run', '--agent', AGENT, '--message', 'r', '--script', 's.yaml', '--workspace', '/', '--json'], dir);
    expect([root.exitCode, root.stdout]).toEqual([2, '']);
    expect(root.stderr).toMatch(/--workspace: workspace \/ cannot be copied: it holds the temporary folder \/\S*, where its copy is made/);
    // With TMPDIR elsewhere, as the message says, a folder laid out the same runs (and reads its file).
    const elsewhere = await tmpDirElsewhere();
    expect([elsewhere.exitCode, elsewhere.stderr]).toEqual([0, '']);
  });
});
