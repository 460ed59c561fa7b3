import { closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { AGENT_YAML, CLI } from './cli.js';
import { tempDir } from '../helpers/temp-dir.js';

const SCRIPT = '- tool_calls: [{name: finish, args: {}}]\n- text: done\n';

/** The built CLI with its stdout going to `file` (opened as a shell's `>>` or `>` would): its exit code and stderr. */
async function withStdoutTo(file: string, flags: 'a' | 'w', args: string[], cwd: string): Promise<{ exitCode: number | null; stderr: string }> {
  const fd = openSync(file, flags);
  try {
    const child = spawn('node', [CLI, ...args], { cwd, env: { ...process.env, CI: 'true' }, stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [exitCode] = (await once(child, 'close')) as [number | null];
    return { exitCode, stderr };
  } finally {
    closeSync(fd);
  }
}

describe('test-run --spans /dev/stdout when stdout is a file', () => {
  for (const flags of ['a', 'w'] as const) {
    it(`writes the spans through stdout itself (opened with "${flags}"): the file is kept, and holds the spans and the result in order`, async () => {
      const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': SCRIPT, 'log.txt': 'keep\n' });
      const log = join(dir, 'log.txt');
      const inode = statSync(log).ino;
      const args = [
        'test-run',
        '--agent',
        'agent.yaml',
        '--message',
        'hi',
        '--script',
        'script.yaml',
        '--terminal-tool',
        'finish',
        '--spans',
        '/dev/stdout',
        '--json',
      ];
      const result = await withStdoutTo(log, flags, args, dir);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(statSync(log).ino).toBe(inode);
      const lines = readFileSync(log, 'utf8').split('\n');
      if (flags === 'a') expect(lines.shift()).toBe('keep');
      const spans = lines.filter((line) => line.startsWith('{"trace_id"'));
      expect(spans.length).toBeGreaterThanOrEqual(3);
      for (const line of spans) expect(JSON.parse(line)).toMatchObject({ ended: true });
      // The --json result follows the spans, whole.
      const rest = lines.slice(lines.indexOf(spans[spans.length - 1]) + 1).join('\n');
      expect(JSON.parse(rest)).toMatchObject({ verdict: 'pass', stop_reason: 'end_turn' });
    });
  }

  it('on a full file system takes back a failed write through a `>>` stdout, and leaves no hole of zero bytes through a `>` one', async () => {
    const calls = Array.from({ length: 40 }, (_, i) => `{name: lookup, args: {id: "${'x'.repeat(200)}${i}"}}`).join(', ');
    const script = `- tool_calls: [${calls}]\n- tool_calls: [{name: finish, args: {}}]\n- text: done\n`;
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'script.yaml': script });
    const args = 'test-run --agent agent.yaml --message hi --script script.yaml --terminal-tool finish --spans /dev/stdout --json';
    for (const redirect of ['>>', '>']) {
      writeFileSync(join(dir, 'log.txt'), 'EARLIER\n');
      // A file size limit (ulimit -f, 16 KB) fails the write past it with EFBIG, as a full disk fails one.
      const result = await execa('bash', ['-c', `ulimit -f 16 && exec node "$0" ${args} ${redirect} log.txt`, CLI], {
        cwd: dir,
        reject: false,
        env: { CI: 'true' },
      });
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stderr).toContain('could not write the spans to /dev/stdout: EFBIG');
      const log = readFileSync(join(dir, 'log.txt'));
      expect(log.includes(0), redirect).toBe(false);
      if (redirect === '>>') {
        // Taken back: what was there, then the result; no half line of spans.
        expect(log.toString('utf8')).toMatch(/^EARLIER\n\{\n {2}"/);
        expect(JSON.parse(log.toString('utf8').slice('EARLIER\n'.length))).toMatchObject({ verdict: 'pass' });
      }
    }
  });
});
