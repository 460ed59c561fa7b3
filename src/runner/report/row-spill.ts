import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { removeLeftover } from '../files/remove-leftover.js';
import { reportRowText } from './report-json-chunks.js';
import type { ScenarioRow } from './report.js';

/** Text gathered before one write, as in spans-file.ts: few system calls, flat memory. */
const WRITE_BATCH_CHARS = 256 * 1024;
/** Most bytes read back at once: neighbouring rows are read together. */
const READ_BLOCK_BYTES = 1 << 20;

/**
 * Finished report rows kept on disk instead of in memory (docs/report-format.md): agentcheck run
 * appends each row to `OUT/.report-rows.<pid>.<random>.tmp` when it finishes, in whatever order
 * runs finish, and reads them back in plan order (by the byte range of each) to stream
 * report.json. A row is stored as report.json holds it (reportRowText), so report.json copies
 * the text and nothing is parsed or printed twice. The file is removed by `remove()` once the
 * reports are written. A failed write (a full disk) never reaches the runs: writing stops and
 * `failure` says why; reading the rows then throws that failure.
 */
export class RowSpill implements Iterable<ScenarioRow> {
  readonly path: string;
  /** Why the file could not be written, once a write failed; null while all is well. */
  failure: string | null = null;
  private fd: number | null;
  private removed = false;
  private pending = '';
  private pendingBytes = 0;
  /** Bytes written and pending: where the next line starts. */
  private end = 0;
  private readonly starts: Float64Array;
  private readonly lengths: Uint32Array;

  /** A new, empty file in `dir` for `count` rows (indexes 0 .. count - 1). */
  constructor(
    dir: string,
    readonly count: number,
  ) {
    // The dot keeps it out of globs such as `reports/*`; pid and random bytes keep runs sharing a folder apart.
    this.path = join(dir, `.report-rows.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    this.fd = openSync(this.path, 'wx+');
    this.starts = new Float64Array(count);
    this.lengths = new Uint32Array(count);
  }

  /** Appends the row of plan position `index` (written with the next batch); after a failure, does nothing. */
  write(row: ScenarioRow, index: number): void {
    if (this.fd === null || this.failure !== null) return;
    const line = `${reportRowText(row)}\n`;
    const bytes = Buffer.byteLength(line);
    this.starts[index] = this.end;
    // Stored with the newline: a length of 0 marks a row never written.
    this.lengths[index] = bytes;
    this.end += bytes;
    this.pending += line;
    this.pendingBytes += bytes;
    if (this.pending.length >= WRITE_BATCH_CHARS) this.flush();
  }

  /** Every row in plan order, parsed back; throws as `texts` does. */
  *[Symbol.iterator](): Generator<ScenarioRow> {
    for (const text of this.texts()) yield JSON.parse(text) as ScenarioRow;
  }

  /**
   * Every row in plan order as report.json text (reportRowText); throws the write failure, or
   * when a row was never written.
   */
  *texts(): Generator<string> {
    this.flush();
    if (this.failure !== null) throw new Error(`could not write the temporary rows file ${this.path}: ${this.failure}`);
    if (this.fd === null) throw new Error(`the temporary rows file ${this.path} was already removed`);
    let index = 0;
    while (index < this.count) {
      // A block: the following rows that lie one after another in the file (runs mostly finish in order).
      const from = this.starts[index];
      let last = index;
      let bytes = this.lengthOf(index);
      while (last + 1 < this.count && this.starts[last + 1] === from + bytes && bytes + this.lengths[last + 1] <= READ_BLOCK_BYTES) {
        last++;
        bytes += this.lengthOf(last);
      }
      const block = Buffer.allocUnsafe(bytes);
      let read = 0;
      while (read < bytes) {
        const n = readSync(this.fd, block, read, bytes - read, from + read);
        if (n === 0) throw new Error(`the temporary rows file ${this.path} ended early`);
        read += n;
      }
      let offset = 0;
      for (; index <= last; index++) {
        const length = this.lengths[index];
        yield block.toString('utf8', offset, offset + length - 1);
        offset += length;
      }
    }
  }

  /**
   * Closes and deletes the file; safe to call more than once (later calls do nothing). Never
   * throws: returns why the file could not be deleted (it stays behind), else null.
   */
  remove(): string | null {
    if (this.removed) return null;
    this.removed = true;
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        // Closing can only fail on a bad descriptor; the file is removed below either way.
      }
    }
    return removeLeftover(this.path);
  }

  private lengthOf(index: number): number {
    const length = this.lengths[index];
    if (!length) throw new Error(`row ${index} of ${this.count} never reached the temporary rows file ${this.path}`);
    return length;
  }

  private flush(): void {
    const text = this.pending;
    const bytes = this.pendingBytes;
    this.pending = '';
    this.pendingBytes = 0;
    if (this.fd === null || this.failure !== null || !text) return;
    try {
      // Positional, at the end of what was flushed before: no reliance on the file position reads move.
      const written = writeSync(this.fd, text, this.end - bytes, 'utf8');
      if (written !== bytes) this.failure = `wrote ${written} of ${bytes} bytes`;
    } catch (error) {
      this.failure = (error as Error).message;
    }
  }
}
