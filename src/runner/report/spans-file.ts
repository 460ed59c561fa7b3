import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { spanJsonLines } from '../../spans/jsonl.js';
import { spanJsonLine } from '../../spans/own-span-record.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { removeLeftover } from '../files/remove-leftover.js';
import { keepReplacedModeSync } from '../files/replaced-file-mode.js';

/** The file operations SpansFile uses: a seam for tests that inject a full disk. */
export interface SpansFileSystem {
  openSync(path: string, flags: 'wx' | 'a'): number;
  /** Node's writeSync: `length` bytes of `data` from `offset`, at the file position. */
  writeSync(fd: number, data: Uint8Array, offset: number, length: number): number;
  fstatSync(fd: number): { size: number; isFile(): boolean };
  ftruncateSync(fd: number, length: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: true }): void;
}

const NODE_FS: SpansFileSystem = {
  openSync,
  writeSync: (fd, data, offset, length) => writeSync(fd, data, offset, length),
  fstatSync,
  ftruncateSync,
  closeSync,
  renameSync,
  rmSync,
};

/**
 * How SpansFile writes its path: `replace` through a partial file of its own, renamed into place
 * when complete; `append` onto the file as it is (a resume's spans, or a pipe or device), taken
 * back to its length before on a failure; `{descriptor, takeBack}` onto a descriptor already open
 * (the process's own stdout redirected to a file), left open, and taken back only when `takeBack`.
 */
export type SpansFileMode = 'replace' | 'append' | { descriptor: number; takeBack: boolean };

/**
 * Bytes gathered before one write: a run's spans are a few KB, and one write per run made the
 * system calls a large part of span recording. 256 KB cost about 1 us less per run than 64 KB in
 * `npm run bench -- spans`; 1 MB cost more (the batch no longer stays in the CPU's cache).
 */
const WRITE_BATCH_BYTES = 256 * 1024;

/**
 * OUT/spans.jsonl (and test-run's --spans file), written as runs finish. Runs' spans are encoded
 * line by line into a batch of about 256 KB written synchronously, so memory stays flat however
 * long the suite (a stream would buffer faster than the disk drains); the file is written under a
 * `.partial` name of its own and renamed when closed (with the mode of the file it replaces), so
 * an earlier complete file survives a killed run. A failed write (a full disk) never reaches the
 * runs: writing stops, `failure` says why, and the partial file is removed instead of renamed, so
 * a truncated file never takes the place of a complete one. In `append` mode a failure takes the
 * file back to its length before instead. Closing never throws: a partial file that cannot be
 * removed is part of `failure`.
 */
export class SpansFile {
  /** Why the file could not be written, once a write failed; null while all is well. */
  failure: string | null = null;
  /** After a failure, whether the file at `path` is as it was before (false: a pipe or device, or a take-back that failed). */
  kept = true;
  /** The `.partial` file written in `replace` mode; null in `append` mode. */
  private readonly partial: string | null = null;
  /** In `append` mode, the file's length to take it back to on a failure; null for a pipe or device. */
  private readonly lengthBefore: number | null = null;
  private fd: number | null;
  /** Whether close() closes the descriptor (not one given already open). */
  private readonly ownsFd: boolean = true;
  // Lines are encoded straight into the batch: gathering text first cost a copy of it and a scan
  // for its byte length at each write.
  private readonly batch = Buffer.allocUnsafe(2 * WRITE_BATCH_BYTES);
  private used = 0;

  /** Opens the file (the partial one in `replace` mode): throws when it cannot be opened, having changed nothing. */
  constructor(
    readonly path: string,
    private readonly fs: SpansFileSystem = NODE_FS,
    mode: SpansFileMode = 'replace',
  ) {
    if (mode !== 'replace') {
      const given = typeof mode === 'object' ? mode : null;
      this.ownsFd = given === null;
      this.fd = given ? given.descriptor : fs.openSync(path, 'a');
      try {
        const stat = fs.fstatSync(this.fd);
        this.lengthBefore = stat.isFile() && (given?.takeBack ?? true) ? stat.size : null;
      } catch (error) {
        if (this.ownsFd) fs.closeSync(this.fd);
        throw error;
      }
      return;
    }
    // A name of this process's own, created new ('wx'): two runs into one folder never share it,
    // and a link planted under a known name is never followed (docs/security.md, Suite faults).
    this.partial = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.partial`);
    this.fd = fs.openSync(this.partial, 'wx');
  }

  /**
   * Appends one run's spans (written with the next batch, or at close); after a failure, does
   * nothing. Its records come straight from the run's span store, so records of this process's own
   * spans are written by their fields (spanJsonLine).
   */
  write(spans: readonly SpanRecord[]): void {
    if (this.fd === null || this.failure !== null || !spans.length) return;
    for (const line of spanJsonLines(spans, spanJsonLine)) this.append(line);
    if (this.used >= WRITE_BATCH_BYTES) this.flush();
  }

  private append(line: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a line that might not fit goes after the batch
    // is written, and one longer than a whole batch is written on its own.
    const most = line.length * 3 + 1;
    if (this.used + most > this.batch.length) {
      this.flush();
      if (most > this.batch.length) {
        const bytes = Buffer.from(`${line}\n`, 'utf8');
        this.writeAll(bytes, bytes.length);
        return;
      }
    }
    this.used += this.batch.write(line, this.used);
    this.batch[this.used++] = 0x0a;
  }

  private flush(): void {
    const used = this.used;
    this.used = 0;
    if (used) this.writeAll(this.batch, used);
  }

  /** Writes the first `length` bytes of `bytes`; a failure is kept in `failure`, never thrown. */
  private writeAll(bytes: Uint8Array, length: number): void {
    if (this.fd === null || this.failure !== null) return;
    try {
      // A disk that fills up mid-batch takes part of it and returns a short count: the rest is
      // written again, and the next write reports why (ENOSPC), so a cut file is never kept.
      for (let offset = 0; offset < length;) {
        const written = this.fs.writeSync(this.fd, bytes, offset, length - offset);
        if (written <= 0) throw new Error(`wrote ${offset} of ${length} bytes of a batch and no more`);
        offset += written;
      }
    } catch (error) {
      this.failure = (error as Error).message;
    }
  }

  /** Gives the file up for `reason`: nothing more is written, and close() treats it as a failed write. */
  fail(reason: string): void {
    this.failure ??= reason;
  }

  /**
   * Closes the file and moves it into place (or removes it after a failure; in `append` mode,
   * takes it back to its length before); later writes are ignored.
   */
  close(): void {
    if (this.fd === null) return;
    this.flush();
    const fd = this.fd;
    this.fd = null;
    if (this.partial === null) {
      this.closeAppended(fd);
      return;
    }
    try {
      // Through the descriptor, before the close: never through a name swapped meanwhile.
      if (this.failure === null) keepReplacedModeSync(fd, this.path);
    } catch (error) {
      this.failure = (error as Error).message;
    }
    try {
      this.fs.closeSync(fd);
      if (this.failure === null) this.fs.renameSync(this.partial, this.path);
    } catch (error) {
      this.failure ??= (error as Error).message;
    }
    if (this.failure === null) return;
    // The folder may be gone or be a file by now: that is said with the failure, never thrown.
    const left = removeLeftover(this.partial, (path, options) => this.fs.rmSync(path, options));
    if (left) this.failure += `; ${left}`;
  }

  /** The close of `append` and descriptor modes: a failed append is cut off where the file ended, so no half line stays. */
  private closeAppended(fd: number): void {
    if (this.failure !== null) {
      this.kept = this.lengthBefore !== null;
      try {
        if (this.lengthBefore !== null) this.fs.ftruncateSync(fd, this.lengthBefore);
      } catch (error) {
        this.kept = false;
        this.failure += `; could not take ${this.path} back to its ${this.lengthBefore} bytes before: ${(error as Error).message}`;
      }
    }
    try {
      if (this.ownsFd) this.fs.closeSync(fd);
    } catch (error) {
      // Everything was written, but the system could not say the file is whole.
      if (this.failure === null) this.kept = false;
      this.failure ??= (error as Error).message;
    }
  }
}
