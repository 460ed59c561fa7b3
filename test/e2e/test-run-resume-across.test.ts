import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/run-main.js';
import { runMainFull } from '../helpers/run-main-full.js';
import { shared } from '../helpers/shared-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runCli, runCliWithFileLimit } from './cli.js';
import { base, pause, SCRIPT } from './test-run-resume-fixture.js';

// Resume across processes and folders, apart from test-run-resume.test.ts so the two files run on
// separate workers.
describe('agentcheck resume: another process, another folder, two at once', () => {
  /**
   * One run paused at its gated write (SCRIPT, --spans out/spans.jsonl), for the full-disk append
   * test and the moved-folder test: each resumes its own copy of the runs folder on the built CLI,
   * as a copied runs folder resumes in the copy and leaves the original alone (docs/cli.md,
   * resume). The original is never resumed. Paused in-process (runMainFull): the pause only sets
   * up those resumes; the built CLI pauses in the full-disk spans test and the call-order test.
   */
  const pausedRun = shared(async (dir) => {
    const root = dir({ 'script.yaml': SCRIPT });
    return { root, runId: await pause(root, ['--spans', 'out/spans.jsonl'], runMainFull) };
  });

  /** A folder of its own holding a copy of the paused run's runs folder as `name`. */
  async function copyPausedRun(name: string): Promise<{ dir: string; runId: string }> {
    const { root, runId } = await pausedRun();
    const dir = tempDir();
    cpSync(join(root, 'out'), join(dir, name), { recursive: true });
    return { dir, runId };
  }

  it("a resume in another process keeps the run's call order and each mock's place in its responses sequence", async () => {
    const dir = tempDir({
      'bot.yaml': `id: bot
agent:
  name: Bot
  llm: {provider: scripted, model: s}
  tools:
    - {name: ta, description: a, parameters: {type: object}, returns: {a: 1}}
    - {name: tb, description: b, parameters: {type: object}, returns: {b: 1}}
    - {name: danger, description: d, permission: ask, parameters: {type: object}, returns: {deleted: true}}
    - {name: refund, description: r, parameters: {type: object, properties: {id: {type: string}}}, http: {method: POST, url: "https://shop.test/refunds", body: {id: "{{ args.id }}"}}}
`,
      'script.yaml': `- tool_calls: [{name: ta, args: {}}]
- tool_calls: [{name: refund, args: {id: "1"}}]
- tool_calls: [{name: tb, args: {}}]
- tool_calls: [{name: danger, args: {}}]
- tool_calls: [{name: refund, args: {id: "2"}}]
- text: ok
`,
      'mocks.yaml': `http:
  - method: POST
    url: "https://shop.test/refunds"
    responses:
      - {status: 200, json: {n: 1}}
      - {status: 500, json: {error: second}}
`,
    });
    const started = await runCli(
      ['test-run', '--agent', 'bot.yaml', '--message', 'go', '--script', 'script.yaml', '--mocks', 'mocks.yaml', '--terminal-tool', 'refund', '--json'],
      dir,
    );
    const runId = JSON.parse(started.stdout).run_id as string;
    expect(runId, started.all).toMatch(/^[0-9a-f]{32}$/);
    const resumed = await runCli(['resume', runId, '--decision', 'approve', '--json'], dir);
    const printed = JSON.parse(resumed.stdout);
    expect(printed.tools.map((tool: { name: string }) => tool.name)).toEqual(['ta', 'refund', 'tb', 'danger']);
    expect(printed).toMatchObject({ verdict: 'failed', verdict_reason: 'tool refund failed: http_500 (HTTP 500: second)' });
  });

  it('says a pause is lost when its checkpoint cannot be kept, and offers no run_id to resume', async () => {
    const dir = tempDir({ 'script.yaml': SCRIPT, reports: 'a file where the runs folder would go' });
    const result = await runCli(base, dir);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('stop reason: paused');
    expect(result.stdout).not.toContain('paused: run');
    expect(result.stderr).toContain('the run paused, but its checkpoint could not be kept, so it cannot be resumed: ');
    expect(result.stderr).toContain('reports is a file, not a folder');
    // In-process (runMainFull): what --json prints is the command's logic; the built CLI lost the
    // checkpoint above.
    const json = await runMainFull([...base, '--json'], dir);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout).run_id).toBeUndefined();
  });

  it('keeps the checkpoint of a paused run whose spans file cannot be written (a full disk), so its run_id resumes', async () => {
    const dir = tempDir({ 'script.yaml': SCRIPT });
    mkdirSync(join(dir, 'out'));
    // Every write to /dev/full fails with ENOSPC, as on a full disk.
    symlinkSync('/dev/full', join(dir, 'out/spans.jsonl'));
    const result = await runCli([...base, '--spans', 'out/spans.jsonl', '--json'], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('agentcheck: could not write the spans to out/spans.jsonl: ENOSPC');
    const runId = JSON.parse(result.stdout).run_id as string;
    expect(runId).toMatch(/^[0-9a-f]{32}$/);
    expect(existsSync(join(dir, 'out', `${runId}.checkpoint.json`))).toBe(true);
    // The kept checkpoint resumes, its spans into another file of that folder (in-process: the
    // built CLI resumes in the tests beside this one).
    const resumed = await runMain(['resume', runId, '--decision', 'approve', '--spans', 'out/resumed.jsonl', '--json'], dir);
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ output: 'Done.', stop_reason: 'end_turn' });
  });

  it.skipIf(process.platform === 'win32')(
    "takes a resume's append back when it fails part way (a full disk), leaving the test-run's spans byte for byte",
    async () => {
      const { dir, runId } = await copyPausedRun('out');
      const before = readFileSync(join(dir, 'out/spans.jsonl'));
      // Room for the file as it is, and less than a run's spans (about 2 KB) beyond it.
      const blocks = Math.ceil(statSync(join(dir, 'out/spans.jsonl')).size / 1024);
      const result = await runCliWithFileLimit(blocks, ['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl', '--json'], dir);
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stderr).toContain('agentcheck: could not write the spans to out/spans.jsonl: EFBIG');
      expect(result.stderr).toContain('; nothing was appended: the file was kept as it was');
      expect(JSON.parse(result.stdout)).toMatchObject({ output: 'Done.', stop_reason: 'end_turn' });
      expect(readFileSync(join(dir, 'out/spans.jsonl'))).toEqual(before);
    },
    120_000,
  );

  it('answers a paused run once when two resumes of it start together', async () => {
    // The resumed run waits 1.5 s on its model, so the second resume starts while the first runs.
    const dir = tempDir({
      'script.yaml': `- tool_calls: [{name: write_file, args: {path: CHANGELOG.md, content: "x"}}]
- text: Done.
  delay_ms: 1500
`,
    });
    // Paused in-process (runMainFull): the point is the two built-CLI resumes racing for it.
    const runId = await pause(dir, ['--spans', 'out/spans.jsonl'], runMainFull);
    const answer = () => runCli(['resume', runId, '--decision', 'approve', '--spans', 'out/spans.jsonl', '--json'], dir);
    const results = await Promise.all([answer(), answer()]);
    expect(results.map((result) => result.exitCode).sort()).toEqual([0, 2]);
    const refused = results.find((result) => result.exitCode === 2)!;
    expect(refused.stderr).toMatch(/another agentcheck resume( \(pid \d+\))? is answering it|no paused run/);
    const traces = new Set(
      readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).trace_id),
    );
    expect(traces.size).toBe(2);
    expect(readdirSync(join(dir, 'out')).filter((name) => name.includes('checkpoint'))).toEqual([]);
  });

  it('resumes from a runs folder that was moved, finding the workspace beside the checkpoint', async () => {
    const { dir, runId } = await copyPausedRun('first');
    renameSync(join(dir, 'first'), join(dir, 'moved'));
    const resumed = await runCli(['resume', runId, '--decision', 'approve', '--spans', 'moved/spans.jsonl', '--json'], dir);
    expect(resumed.exitCode, resumed.all).toBe(0);
    expect(readFileSync(join(dir, 'moved', `${runId}.workspace`, 'CHANGELOG.md'), 'utf8')).toBe('- fixed add()\n');
  });
});
