import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { spansToJsonl } from '../../spans/jsonl.js';
import type { SpanRecord } from '../../spans/span-record.js';

/** The file operations SpansFile uses: a seam for tests that inject a full disk. */
export interface SpansFileSystem {
  openSync(path: string, flags: 'w'): number;
  writeSync(fd: number, text: string): number;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: true }): void;
}

const NODE_FS: SpansFileSystem = { openSync, writeSync, closeSync, renameSync, rmSync };

/**
 * OUT/spans.jsonl, written as runs finish. Each run's spans are written synchronously, so
 * memory stays flat however long the suite (a stream would buffer faster than the disk
 * drains); the file is written under a `.partial` name and renamed when closed, so an earlier
 * complete file survives a killed run. A failed write (a full disk) never reaches the runs:
 * writing stops, `failure` says why, and the partial file is removed instead of renamed, so a
 * truncated file never takes the place of a complete one.
 */
export class SpansFile {
  /** Why the file could not be written, once a write failed; null while all is well. */
  failure: string | null = null;
  private readonly partial: string;
  private fd: number | null;

  constructor(readonly path: string, private readonly fs: SpansFileSystem = NODE_FS) {
    this.partial = `${path}.partial`;
    this.fd = fs.openSync(this.partial, 'w');
  }

  /** Appends one run's spans; after a failure, does nothing. */
  write(spans: readonly SpanRecord[]): void {
    if (this.fd === null || this.failure !== null || !spans.length) return;
    try {
      this.fs.writeSync(this.fd, spansToJsonl(spans));
    } catch (error) {
      this.failure = (error as Error).message;
    }
  }

  /** Closes the file and moves it into place (or removes it after a failure); later writes are ignored. */
  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    try {
      this.fs.closeSync(fd);
      if (this.failure === null) this.fs.renameSync(this.partial, this.path);
    } catch (error) {
      this.failure ??= (error as Error).message;
    }
    if (this.failure !== null) this.fs.rmSync(this.partial, { force: true });
  }
}
