import { chmodSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    expect(merged).toEqual({ missing: [], unreadable: ['shard1/spans.jsonl:2', 'shard1/spans.jsonl:3', 'shard2/spans.jsonl:1'], written: true });
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
