import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { spansToJsonl } from '../../spans/jsonl.js';
import type { SpanRecord } from '../../spans/span-record.js';
import { removeLeftover } from '../files/remove-leftover.js';

/** The file operations SpansFile uses: a seam for tests that inject a full disk. */
export interface SpansFileSystem {
  openSync(path: string, flags: 'wx'): number;
  /** Node's writeSync: text at the file position, or `length` bytes of `data` from `offset`. */
  writeSync(fd: number, data: string | Uint8Array, offset?: number, length?: number): number;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: true }): void;
}

const NODE_FS: SpansFileSystem = {
  openSync,
  writeSync: (fd, data, offset, length) => (typeof data === 'string' ? writeSync(fd, data) : writeSync(fd, data, offset, length)),
  closeSync,
  renameSync,
  rmSync,
};

/**
 * Text gathered before one write: a run's spans are a few KB, and one write per run made the
 * system calls a large part of span recording. Much larger batches cost more than they save.
 */
const WRITE_BATCH_CHARS = 64 * 1024;

/**
 * OUT/spans.jsonl, written as runs finish. Runs' spans are gathered into batches of about 64 KB
 * written synchronously, so memory stays flat however long the suite (a stream would buffer
 * faster than the disk drains); the file is written under a `.partial` name of its own and renamed when closed, so an earlier
 * complete file survives a killed run. A failed write (a full disk) never reaches the runs:
 * writing stops, `failure` says why, and the partial file is removed instead of renamed, so a
 * truncated file never takes the place of a complete one. Closing never throws: a partial file
 * that cannot be removed is part of `failure`.
 */
export class SpansFile {
  /** Why the file could not be written, once a write failed; null while all is well. */
  failure: string | null = null;
  private readonly partial: string;
  private fd: number | null;
  private pending = '';

  constructor(
    readonly path: string,
    private readonly fs: SpansFileSystem = NODE_FS,
  ) {
    // A name of this process's own, created new ('wx'): two runs into one folder never share it,
    // and a link planted under a known name is never followed (docs/security.md, Suite faults).
    this.partial = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.partial`);
    this.fd = fs.openSync(this.partial, 'wx');
  }

  /** Appends one run's spans (written with the next batch, or at close); after a failure, does nothing. */
  write(spans: readonly SpanRecord[]): void {
    if (this.fd === null || this.failure !== null || !spans.length) return;
    this.pending += spansToJsonl(spans);
    if (this.pending.length >= WRITE_BATCH_CHARS) this.flush();
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    if (this.fd === null || this.failure !== null || !text) return;
    try {
      const written = this.fs.writeSync(this.fd, text);
      // A disk that fills up mid-batch takes part of it and returns a short count: the rest is
      // written again, and the next write reports why (ENOSPC), so a cut file is never kept. The
      // text goes to Node as is; it is encoded here only to find where a short write stopped.
      if (written < text.length || written < Buffer.byteLength(text, 'utf8')) {
        const bytes = Buffer.from(text, 'utf8');
        for (let offset = written; offset < bytes.length;) {
          const more = this.fs.writeSync(this.fd, bytes, offset, bytes.length - offset);
          if (more <= 0) throw new Error(`wrote ${offset} of ${bytes.length} bytes of a batch and no more`);
          offset += more;
        }
      }
    } catch (error) {
      this.failure = (error as Error).message;
    }
  }

  /** Closes the file and moves it into place (or removes it after a failure); later writes are ignored. */
  close(): void {
    if (this.fd === null) return;
    this.flush();
    const fd = this.fd;
    this.fd = null;
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
}
