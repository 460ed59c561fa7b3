import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpansFile, type SpansFileSystem } from '../../src/runner/report/spans-file.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { AGENT_YAML, passingScenario, runCli } from '../e2e/cli.js';
import { fullAfter } from '../helpers/full-disk.js';
import { tempDir } from '../helpers/temp-dir.js';

const SPAN: SpanRecord = {
  trace_id: 't',
  span_id: 's',
  parent_id: null,
  name: 'n',
  kind: 'internal',
  status: 'unset',
  start_ms: 0,
  end_ms: 1,
  duration_ms: 1,
  attributes: {},
  ended: true,
};

/** The partial spans files left in `dir` (the planted link of the old fixed name aside). */
function partials(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.partial') && name !== 'spans.jsonl.partial');
}

describe('spans.jsonl on a full disk', () => {
  it('stops at the first failed write, keeps the previous file and removes the partial one', () => {
    const dir = tempDir({ 'spans.jsonl': 'the previous complete file\n' });
    const file = new SpansFile(join(dir, 'spans.jsonl'), fullAfter(300));
    for (let i = 0; i < 5; i++) expect(() => file.write([SPAN])).not.toThrow();
    file.close();
    expect(file.failure).toContain('ENOSPC');
    expect(readFileSync(join(dir, 'spans.jsonl'), 'utf8')).toBe('the previous complete file\n');
    expect(partials(dir)).toEqual([]);
  });

  it('counts a short write (the disk filled up inside a batch) as the failure it is, never keeping the cut file', () => {
    const dir = tempDir();
    const file = new SpansFile(join(dir, 'spans.jsonl'), fullAfter(100));
    file.write([SPAN]); // ~150 bytes: the disk takes 100 of them
    file.close();
    expect(file.failure).toContain('ENOSPC');
    expect(existsSync(join(dir, 'spans.jsonl'))).toBe(false);
    expect(partials(dir)).toEqual([]);
  });

  it('never throws when its folder became a file: the failure says why, and a partial file that stays is named', () => {
    const dir = tempDir();
    const notADirectory = (call: string) => () => {
      throw Object.assign(new Error(`ENOTDIR: not a directory, ${call}`), { code: 'ENOTDIR' });
    };
    const gone = new SpansFile(join(dir, 'spans.jsonl'), { ...fullAfter(1e6), renameSync: notADirectory('rename'), rmSync: notADirectory('lstat') });
    gone.write([SPAN]);
    expect(() => gone.close()).not.toThrow();
    // Nothing can be left in a folder that is not one: only the rename's failure is said.
    expect(gone.failure).toBe('ENOTDIR: not a directory, rename');

    const stuck = new SpansFile(join(dir, 'spans.jsonl'), {
      ...fullAfter(1e6),
      renameSync: notADirectory('rename'),
      rmSync: () => {
        throw Object.assign(new Error('EACCES: permission denied, unlink'), { code: 'EACCES' });
      },
    });
    expect(() => stuck.close()).not.toThrow();
    expect(stuck.failure).toMatch(
      /^ENOTDIR: not a directory, rename; could not remove .*\/\.spans\.jsonl\.\d+\.[0-9a-f]{12}\.partial: EACCES: permission denied, unlink$/,
    );
  });

  it('writes and renames when there is room', () => {
    const dir = tempDir();
    const file = new SpansFile(join(dir, 'spans.jsonl'), fullAfter(1e6));
    file.write([SPAN]);
    file.close();
    expect(file.failure).toBeNull();
    expect(JSON.parse(readFileSync(join(dir, 'spans.jsonl'), 'utf8'))).toMatchObject({ span_id: 's' });
  });

  it("gathers many runs' spans into one write, and writes what is left when closed", () => {
    const dir = tempDir();
    const writes: number[] = [];
    const room = fullAfter(1e9);
    const counting: SpansFileSystem = { ...room, writeSync: (fd, data, offset, length) => (writes.push(1), room.writeSync(fd, data, offset, length)) };
    const file = new SpansFile(join(dir, 'spans.jsonl'), counting);
    const runs = Array.from({ length: 100 }, (_, i) => [
      { ...SPAN, span_id: `s${i}` },
      { ...SPAN, span_id: `t${i}` },
    ]);
    for (const spans of runs) file.write(spans);
    file.close();
    expect(writes.length).toBeLessThan(runs.length / 10);
    const lines = readFileSync(join(dir, 'spans.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as SpanRecord).span_id)).toEqual(runs.flat().map((span) => span.span_id));
  });

  it('keeps every line whole and in order: multi-byte text across batch ends, and a line longer than a batch', () => {
    const dir = tempDir();
    const writes: number[] = [];
    const room = fullAfter(1e9);
    const file = new SpansFile(join(dir, 'spans.jsonl'), {
      ...room,
      writeSync: (fd, data, offset, length) => (writes.push(length), room.writeSync(fd, data, offset, length)),
    });
    const runs: SpanRecord[][] = [];
    for (let i = 0; i < 300; i++) runs.push([{ ...SPAN, span_id: `s${i}`, attributes: { text: `é😀中`.repeat(40 + (i % 7)) } }]);
    runs.splice(150, 0, [{ ...SPAN, span_id: 'huge', attributes: { text: '😀'.repeat(200_000) } }]);
    for (const spans of runs) file.write(spans);
    file.close();
    expect(file.failure).toBeNull();
    const lines = readFileSync(join(dir, 'spans.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line) as SpanRecord)).toEqual(runs.flat());
    // The batch written before the long line, the long line in a write of its own, the rest at close.
    expect(writes.some((length) => length > 800_000)).toBe(true);
    expect(writes.length).toBeGreaterThan(2);
  });

  it('agentcheck run writes its partial spans under a name of its own: a link planted at the old fixed name is not followed', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('one'), 'victim.txt': 'VICTIM\n' });
    mkdirSync(join(dir, 'out'));
    symlinkSync(join(dir, 'victim.txt'), join(dir, 'out', 'spans.jsonl.partial'));
    const result = await runCli(['run', '.', '--out', join(dir, 'out'), '--reporter', 'json'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('VICTIM\n');
    expect(readFileSync(join(dir, 'out', 'spans.jsonl'), 'utf8')).toContain('"trace_id"');
    expect(partials(join(dir, 'out'))).toEqual([]);
  });
});

/** The permission bits of the file at `path` (a link's own, not followed). */
function modeOf(path: string): number {
  return lstatSync(path).mode & 0o777;
}

/** The mode a file made new in `dir` gets (0o666 less the umask). */
function newFileMode(dir: string): number {
  writeFileSync(join(dir, 'fresh'), '');
  return modeOf(join(dir, 'fresh'));
}

describe("spans.jsonl keeps the replaced file's mode", () => {
  it('takes the mode of the spans.jsonl it replaces: a 0600 file stays 0600, a 0640 one 0640', () => {
    for (const mode of [0o600, 0o640]) {
      const dir = tempDir({ 'spans.jsonl': 'the previous file\n' });
      chmodSync(join(dir, 'spans.jsonl'), mode);
      const file = new SpansFile(join(dir, 'spans.jsonl'));
      file.write([SPAN]);
      file.close();
      expect(file.failure).toBeNull();
      expect(readFileSync(join(dir, 'spans.jsonl'), 'utf8')).toContain('"span_id":"s"');
      expect(modeOf(join(dir, 'spans.jsonl'))).toBe(mode);
    }
  });

  it('a new file, or one replacing a symbolic link (the link is replaced, not what it names), gets the mode a new file gets', () => {
    const dir = tempDir({ 'secret.txt': 'kept\n' });
    chmodSync(join(dir, 'secret.txt'), 0o600);
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'linked.jsonl'));
    for (const name of ['spans.jsonl', 'linked.jsonl']) {
      const file = new SpansFile(join(dir, name));
      file.write([SPAN]);
      file.close();
      expect(file.failure).toBeNull();
      expect(modeOf(join(dir, name))).toBe(newFileMode(dir));
    }
    expect(statSync(join(dir, 'secret.txt')).mode & 0o777).toBe(0o600);
  });

  it('agentcheck run --out DIR over a 0600 DIR/spans.jsonl and report.json leaves both 0600', async () => {
    const dir = tempDir({ 'agent.yaml': AGENT_YAML, 'a.scenario.yaml': passingScenario('one'), 'out/spans.jsonl': 'old\n', 'out/report.json': '{}\n' });
    chmodSync(join(dir, 'out/spans.jsonl'), 0o600);
    chmodSync(join(dir, 'out/report.json'), 0o600);
    const result = await runCli(['run', '.', '--out', 'out', '--reporter', 'json', '--reporter', 'md'], dir);
    expect(result.exitCode, result.all).toBe(0);
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toContain('"trace_id"');
    expect(modeOf(join(dir, 'out/spans.jsonl'))).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8'))).toMatchObject({ schema: 'agentcheck.report/1' });
    expect(modeOf(join(dir, 'out/report.json'))).toBe(0o600);
    // A report that was not there is made as any new file is.
    expect(modeOf(join(dir, 'out/report.md'))).toBe(newFileMode(dir));
  });
});
