import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, runCli } from './cli.js';

const AGENT = join(ROOT, 'fixtures/agents/coding-agent.yaml');

describe('agentcheck test-run --workspace', () => {
  it('never copies its own runs folder into the workspace: checkpoints stay out of sight and copies do not nest', async () => {
    const dir = tempDir({ 'a.txt': 'hi\n' });
    // Run 2 reads run 1's checkpoint (not in its copy), then writes (gated: the run pauses).
    const script = (checkpoint: string) =>
      `- tool_calls: [{name: read_file, args: {path: ${JSON.stringify(checkpoint)}}}]\n- tool_calls: [{name: write_file, args: {path: b.txt, content: new}}]\n- text: Wrote b.txt.\n`;
    const run = async (checkpoint: string) => {
      const result = await runCli(
        ['test-run', '--agent', AGENT, '--message', 'w', '--script', '-', '--workspace', '.', '--terminal-tool', 'write_file', '--json'].map((arg) =>
          arg === '-' ? join(tempDir({ 's.yaml': script(checkpoint) }), 's.yaml') : arg,
        ),
        dir,
      );
      expect(result.exitCode, result.stderr).toBe(1);
      return JSON.parse(result.stdout) as { run_id: string; tools: unknown[] };
    };
    const first = await run('a.txt');
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

  it('copies the whole folder when the runs folder holds it rather than lies inside it', async () => {
    const dir = tempDir({ 'ws/a.txt': 'hi\n', 's.yaml': '- tool_calls: [{name: read_file, args: {path: a.txt}}]\n- text: read\n' });
    const result = await runCli(
      [
        'test-run',
        '--agent',
        AGENT,
        '--message',
        'r',
        '--script',
        's.yaml',
        '--workspace',
        'ws',
        '--spans',
        'spans.jsonl',
        '--terminal-tool',
        'read_file',
        '--json',
      ],
      dir,
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).tools).toEqual([{ name: 'read_file', called: 1, returned: 1, errors: 0 }]);
  });
});
