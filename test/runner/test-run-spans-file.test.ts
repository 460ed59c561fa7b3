import { chmodSync, closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTestRunSpans } from '../../src/runner/commands/test-run-spans-file.js';
import type { SpansFileSystem } from '../../src/runner/report/spans-file.js';
import type { SpanRecord } from '../../src/spans/span-record.js';
import { fullAfter } from '../helpers/full-disk.js';
import { spanRecord } from '../helpers/span-record.js';
import { tempDir } from '../helpers/temp-dir.js';

const PREVIOUS = `${JSON.stringify(spanRecord('t0', 's0', null, 'previous', 0, 1))}\n`;

/** Spans whose JSON lines take about `bytes` bytes, more than a small disk's room. */
function spans(count: number): SpanRecord[] {
  return Array.from({ length: count }, (_, i) => spanRecord('t1', `s${i}`, null, `span ${i}`, i, 1, { text: 'x'.repeat(200) }));
}

/** The error writeTestRunSpans throws, which it must. */
function failureOf(write: () => void): Error {
  try {
    write();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the write to fail');
}

function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.partial'));
}

describe('test-run --spans on a full disk', () => {
  it('keeps the previous file byte for byte and removes its partial file, saying so', () => {
    const dir = tempDir({ 'spans.jsonl': PREVIOUS });
    const file = join(dir, 'spans.jsonl');
    const error = failureOf(() => writeTestRunSpans(file, spans(20), false, 'out/spans.jsonl', fullAfter(1000)));
    expect(error.message).toBe('could not write the spans to out/spans.jsonl: ENOSPC: no space left on device, write; the previous file was kept');
    expect(readFileSync(file, 'utf8')).toBe(PREVIOUS);
    expect(leftovers(dir)).toEqual([]);
  });

  it('says no file was written when there was none before, rather than that one was kept', () => {
    const dir = tempDir();
    const file = join(dir, 'spans.jsonl');
    const error = failureOf(() => writeTestRunSpans(file, spans(20), false, 'out/spans.jsonl', fullAfter(1000)));
    expect(error.message).toBe('could not write the spans to out/spans.jsonl: ENOSPC: no space left on device, write; no file was written');
    expect(existsSync(file)).toBe(false);
    expect(leftovers(dir)).toEqual([]);
    // As test-run leaves it: the FILE it made empty before the run stays empty, and is said so.
    const empty = join(tempDir({ 'spans.jsonl': '' }), 'spans.jsonl');
    const emptyError = failureOf(() => writeTestRunSpans(empty, spans(20), false, 'out/spans.jsonl', fullAfter(1000)));
    expect(emptyError.message).toMatch(/; the file was left empty$/);
    expect(readFileSync(empty, 'utf8')).toBe('');
  });

  it('takes a failed append (resume) back to where the file ended: never half a line', () => {
    const dir = tempDir({ 'spans.jsonl': PREVIOUS });
    const file = join(dir, 'spans.jsonl');
    const error = failureOf(() => writeTestRunSpans(file, spans(20), true, 'out/spans.jsonl', fullAfter(1000)));
    expect(error.message).toBe(
      'could not write the spans to out/spans.jsonl: ENOSPC: no space left on device, write; nothing was appended: the file was kept as it was',
    );
    expect(readFileSync(file, 'utf8')).toBe(PREVIOUS);
    expect(leftovers(dir)).toEqual([]);
  });

  it('says a take-back that fails too, and then claims nothing was kept', () => {
    const dir = tempDir({ 'spans.jsonl': PREVIOUS });
    const file = join(dir, 'spans.jsonl');
    const stuck: SpansFileSystem = {
      ...fullAfter(1000),
      ftruncateSync: () => {
        throw new Error('EIO: i/o error, ftruncate');
      },
    };
    const error = failureOf(() => writeTestRunSpans(file, spans(20), true, 'out/spans.jsonl', stuck));
    expect(error.message).toBe(
      `could not write the spans to out/spans.jsonl: ENOSPC: no space left on device, write; could not take ${file} back to its ${PREVIOUS.length} bytes before: EIO: i/o error, ftruncate`,
    );
  });

  it('keeps the previous file when its partial file cannot even be created', () => {
    const dir = tempDir({ 'spans.jsonl': PREVIOUS });
    const refusing: SpansFileSystem = {
      ...fullAfter(1e6),
      openSync: () => {
        throw new Error('EACCES: permission denied, open');
      },
    };
    const error = failureOf(() => writeTestRunSpans(join(dir, 'spans.jsonl'), spans(1), false, 's.jsonl', refusing));
    expect(error.message).toBe('could not write the spans to s.jsonl: EACCES: permission denied, open; the previous file was kept');
    expect(readFileSync(join(dir, 'spans.jsonl'), 'utf8')).toBe(PREVIOUS);
  });
});

describe('test-run --spans with room', () => {
  it('replaces the file through a partial file of its own, leaving none', () => {
    const dir = tempDir({ 'spans.jsonl': PREVIOUS });
    const file = join(dir, 'spans.jsonl');
    writeTestRunSpans(file, spans(3), false, 'spans.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as SpanRecord).span_id)).toEqual(['s0', 's1', 's2']);
    expect(lines[0]).toBe(JSON.stringify(spans(1)[0]));
    expect(leftovers(dir)).toEqual([]);
  });

  it('appends after what the file holds', () => {
    const dir = tempDir({ 'spans.jsonl': PREVIOUS });
    const file = join(dir, 'spans.jsonl');
    writeTestRunSpans(file, spans(2), true, 'spans.jsonl');
    expect(readFileSync(file, 'utf8')).toBe(
      `${PREVIOUS}${spans(2)
        .map((span) => `${JSON.stringify(span)}\n`)
        .join('')}`,
    );
  });

  it("writes a --spans link to the file it names, in that file's folder, and keeps the link", () => {
    const dir = tempDir({ 'real/spans.jsonl': PREVIOUS, 'out/.keep': '' });
    const link = join(dir, 'out/spans.jsonl');
    symlinkSync(join(dir, 'real/spans.jsonl'), link);
    writeTestRunSpans(link, spans(1), false, 'out/spans.jsonl');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real/spans.jsonl'), 'utf8')).toBe(`${JSON.stringify(spans(1)[0])}\n`);
    expect([...leftovers(join(dir, 'out')), ...leftovers(join(dir, 'real'))]).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('writes a device as it is: no partial file beside it, nothing renamed over it', () => {
    writeTestRunSpans('/dev/null', spans(1), false, '/dev/null');
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(leftovers(dirname('/dev/null')).filter((name) => name.startsWith('.null.'))).toEqual([]);
    expect(existsSync('/dev/null')).toBe(true);
  });

  it("writes /dev/fd/N open on a file through that descriptor: a failed write is taken back when it appends, and left as it is when it does not (the descriptor's position would pass the end)", () => {
    for (const flags of ['a', 'w'] as const) {
      const dir = tempDir({ 'log.txt': PREVIOUS });
      const log = join(dir, 'log.txt');
      const fd = openSync(log, flags === 'a' ? 'a' : 'r+');
      try {
        const error = failureOf(() => writeTestRunSpans(`/dev/fd/${fd}`, spans(20), false, '/dev/stdout', fullAfter(1000)));
        const text = readFileSync(log, 'utf8');
        if (flags === 'a') {
          expect(error.message).toMatch(/; nothing was appended: the file was kept as it was$/);
          expect(text).toBe(PREVIOUS);
        } else {
          expect(error.message).toBe('could not write the spans to /dev/stdout: ENOSPC: no space left on device, write');
          // Written from the descriptor's position (the start), never cut back behind it.
          expect(text.length).toBeGreaterThanOrEqual(1000);
        }
        expect(readdirSync(dir)).toEqual(['log.txt']);
      } finally {
        closeSync(fd);
      }
    }
  });
});

describe('test-run --spans whose path became a folder while the run ran', () => {
  it('says nothing was written, not that nothing was appended (test-run replaces its file)', () => {
    const dir = tempDir({ 'dd/s.jsonl/.keep': '' });
    const error = failureOf(() => writeTestRunSpans(join(dir, 'dd/s.jsonl'), spans(1), false, 'dd/s.jsonl'));
    expect(error.message).toMatch(/^could not write the spans to dd\/s\.jsonl: EISDIR[^;]*; nothing was written$/);
  });

  it('resume says nothing was appended and that no file is there any more, not that the file was kept', () => {
    const dir = tempDir({ 'dd/s.jsonl/.keep': '' });
    const error = failureOf(() => writeTestRunSpans(join(dir, 'dd/s.jsonl'), spans(1), true, 'dd/s.jsonl'));
    expect(error.message).toMatch(
      /^could not write the spans to dd\/s\.jsonl: EISDIR[^;]*; nothing was appended: there is no file there any more \(a folder is there now\)$/,
    );
    expect(readdirSync(join(dir, 'dd/s.jsonl'))).toEqual(['.keep']);
  });
});

describe("test-run --spans keeps the replaced file's mode", () => {
  it('a FILE made 0600 stays 0600 when replaced, also through a link to it', () => {
    const dir = tempDir({ 'spans.jsonl': PREVIOUS, 'real/linked.jsonl': PREVIOUS, 'out/.keep': '' });
    chmodSync(join(dir, 'spans.jsonl'), 0o600);
    chmodSync(join(dir, 'real/linked.jsonl'), 0o600);
    symlinkSync(join(dir, 'real/linked.jsonl'), join(dir, 'out/spans.jsonl'));
    writeTestRunSpans(join(dir, 'spans.jsonl'), spans(2), false, 'spans.jsonl');
    writeTestRunSpans(join(dir, 'out/spans.jsonl'), spans(2), false, 'out/spans.jsonl');
    for (const file of ['spans.jsonl', 'real/linked.jsonl']) {
      expect(readFileSync(join(dir, file), 'utf8').trim().split('\n')).toHaveLength(2);
      expect(lstatSync(join(dir, file)).mode & 0o777).toBe(0o600);
    }
  });
});
