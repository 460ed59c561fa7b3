import { chmodSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { mergeSpanFiles } from '../../../src/runner/merge/merge-spans.js';
import { readSpansJsonl } from '../../../src/spans/jsonl.js';
import { spanRecord } from '../../helpers/span-record.js';
import { tempDir } from '../../helpers/temp-dir.js';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const whole = (id: string) => spanRecord('t1', id, null, `span ${id}`, 0, 5);

describe('mergeSpanFiles keeps whole span records only', () => {
  it('leaves out and names a line with a bad kind, status or a null time, which spans query would refuse, and keeps the whole ones', async () => {
    const dir = tempDir({
      'shard1/report.json': '{}',
      'shard1/spans.jsonl': [
        line(whole('a')),
        line({ ...whole('b'), kind: 'sideways' }),
        line({ ...whole('c'), start_ms: null }), // NaN written by JSON.stringify
        line(whole('d')),
      ].join(''),
      'shard2/report.json': '{}',
      'shard2/spans.jsonl': [line({ ...whole('e'), status: 'fine' }), line(whole('f'))].join(''),
    });
    mkdirSync(join(dir, 'out'));
    const merged = await mergeSpanFiles(['shard1/report.json', 'shard2/report.json'], join(dir, 'out'), dir);
    expect(merged).toEqual({
      missing: [],
      skipped: [],
      unreadable: ['shard1/spans.jsonl:2', 'shard1/spans.jsonl:3', 'shard2/spans.jsonl:1'],
      written: true,
      earlier: null,
    });
    // What merge kept is what the readers (spans query, re-scoring) read back, whole.
    const spans = await readSpansJsonl(join(dir, 'out/spans.jsonl'));
    expect(spans.map((span) => span.span_id)).toEqual(['a', 'd', 'f']);
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toBe([whole('a'), whole('d'), whole('f')].map(line).join(''));
  });

  it('keeps a first line after a byte order mark, as readSpansJsonl reads it, without the mark', async () => {
    const dir = tempDir({ 'shard1/report.json': '{}', 'shard1/spans.jsonl': `\ufeff${line(whole('a'))}${line(whole('b'))}` });
    mkdirSync(join(dir, 'out'));
    const merged = await mergeSpanFiles(['shard1/report.json'], join(dir, 'out'), dir);
    expect(merged.unreadable).toEqual([]);
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toBe(line(whole('a')) + line(whole('b')));
  });
});

describe("mergeSpanFiles keeps the replaced file's mode", () => {
  it('an OUT/spans.jsonl made 0600 stays 0600 when the merge replaces it', async () => {
    const dir = tempDir({ 'shard1/report.json': '{}', 'shard1/spans.jsonl': line(whole('a')), 'out/spans.jsonl': 'old\n' });
    chmodSync(join(dir, 'out/spans.jsonl'), 0o600);
    await mergeSpanFiles(['shard1/report.json'], join(dir, 'out'), dir);
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toBe(line(whole('a')));
    expect(lstatSync(join(dir, 'out/spans.jsonl')).mode & 0o777).toBe(0o600);
  });
});

describe('mergeSpanFiles leaves out a spans.jsonl that is no regular file, as a missing one', () => {
  it('names a named pipe, a folder, a link to a folder and a link to nothing by path and kind, and merges the regular files', async () => {
    const dir = tempDir({
      'shard1/report.json': '{}',
      'shard1/spans.jsonl': line(whole('a')),
      'pipe/report.json': '{}',
      'folder/report.json': '{}',
      'folder/spans.jsonl/x': '',
      'linked/report.json': '{}',
      'shard2/report.json': '{}',
      'shard2/spans.jsonl': line(whole('b')),
      'bare/report.json': '{}',
      'dangling/report.json': '{}',
    });
    await execa('mkfifo', [join(dir, 'pipe/spans.jsonl')]);
    symlinkSync(join(dir, 'folder/spans.jsonl'), join(dir, 'linked/spans.jsonl'));
    symlinkSync(join(dir, 'nowhere/spans.jsonl'), join(dir, 'dangling/spans.jsonl'));
    mkdirSync(join(dir, 'out'));
    const reports = ['shard1', 'pipe', 'folder', 'linked', 'shard2', 'bare', 'dangling'].map((name) => `${name}/report.json`);
    const merged = await mergeSpanFiles(reports, join(dir, 'out'), dir);
    expect(merged).toEqual({
      missing: ['bare/report.json'],
      skipped: [
        { file: 'pipe/spans.jsonl', why: 'is a named pipe (FIFO), not a regular file' },
        { file: 'folder/spans.jsonl', why: 'is a folder, not a regular file' },
        { file: 'linked/spans.jsonl', why: 'is a symbolic link to a folder, not a regular file' },
        { file: 'dangling/spans.jsonl', why: 'is a symbolic link to nothing (no such file), not a regular file' },
      ],
      unreadable: [],
      written: true,
      earlier: null,
    });
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toBe(line(whole('a')) + line(whole('b')));
  });

  it('writes nothing when no spans.jsonl is usable, and names an earlier OUT/spans.jsonl left there', async () => {
    const dir = tempDir({ 'folder/report.json': '{}', 'folder/spans.jsonl/x': '', 'out/spans.jsonl': 'earlier\n' });
    const merged = await mergeSpanFiles(['folder/report.json'], join(dir, 'out'), dir);
    expect(merged).toMatchObject({ written: false, earlier: 'out/spans.jsonl' });
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toBe('earlier\n');
  });
});

describe('mergeSpanFiles says why OUT/spans.jsonl was not written', () => {
  it('names the file it could not write and that none was written, when OUT/spans.jsonl is a folder', async () => {
    const dir = tempDir({ 'shard1/report.json': '{}', 'shard1/spans.jsonl': line(whole('a')), 'out/spans.jsonl/x': '' });
    await expect(mergeSpanFiles(['shard1/report.json'], join(dir, 'out'), dir)).rejects.toThrow(
      /^could not write out\/spans\.jsonl: EISDIR[^;]*; no spans\.jsonl was written$/,
    );
  });

  it("says the previous OUT/spans.jsonl was kept and is not this merge's, when the new one cannot be made", async () => {
    const dir = tempDir({ 'shard1/report.json': '{}', 'shard1/spans.jsonl': line(whole('a')), 'out/spans.jsonl': 'earlier\n' });
    // The partial file's path taken by a folder: the merged file cannot be opened.
    mkdirSync(join(dir, `out/spans.jsonl.${process.pid}.partial`));
    await expect(mergeSpanFiles(['shard1/report.json'], join(dir, 'out'), dir)).rejects.toThrow(
      "the previous out/spans.jsonl was kept: it holds an earlier run's or merge's spans, not this merge's",
    );
    expect(readFileSync(join(dir, 'out/spans.jsonl'), 'utf8')).toBe('earlier\n');
  });
});

describe('mergeSpanFiles with many shards', () => {
  it('merges more shards than the process may hold files open, one open at a time', async () => {
    const shards = 300;
    const files: Record<string, string> = {};
    for (let i = 0; i < shards; i++) {
      files[`s${i}/report.json`] = '{}';
      files[`s${i}/spans.jsonl`] = line(spanRecord(`t${i}`, `span${i}`, null, `span ${i}`, 0, 5));
    }
    const dir = tempDir(files);
    mkdirSync(join(dir, 'out'));
    // A child process under `ulimit -n 100`: holding every shard's file open at once would fail
    // with EMFILE and leave most shards' spans out.
    // The built module (npm test builds first), as the CLI runs it.
    const module = join(import.meta.dirname, '../../../dist/src/runner/merge/merge-spans.js');
    const script = `const { mergeSpanFiles } = await import(${JSON.stringify(module)});
const reports = Array.from({ length: ${shards} }, (_, i) => 's' + i + '/report.json');
const merged = await mergeSpanFiles(reports, 'out', process.cwd());
console.log(JSON.stringify({ skipped: merged.skipped.length, written: merged.written }));`;
    const run = await execa('bash', ['-c', 'ulimit -n 100 && exec node --input-type=module -e "$1"', 'bash', script], { cwd: dir, reject: false });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ skipped: 0, written: true });
    const spans = await readSpansJsonl(join(dir, 'out/spans.jsonl'));
    expect(spans).toHaveLength(shards);
  });
});
