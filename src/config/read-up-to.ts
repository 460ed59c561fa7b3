import { closeSync, constants, openSync, readFileSync, readSync, type Stats } from 'node:fs';

/**
 * A file's bytes, or its first `limit` + 1 when it is longer (the caller refuses those). A regular
 * file is read whole (its size was checked); a device, a pipe or a /proc file states no size, so
 * it is read only that far, never without end (`/dev/zero` as an agent file).
 */
export function readUpTo(file: string, stats: Stats, limit: number): Buffer {
  if (stats.isFile() && stats.size > 0) return readFileSync(file);
  // A named pipe is opened without waiting for a writer (a plain open would wait for ever, deaf to
  // signals): with none, it reads as empty; with one (`--script <(...)`, /dev/stdin), as it comes.
  const fifo = stats.isFIFO();
  const fd = openSync(file, fifo ? constants.O_RDONLY | constants.O_NONBLOCK : 'r');
  try {
    const buffer = Buffer.alloc(Math.min(limit + 1, 64 * 1024));
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= limit) {
      const read = fifo
        ? readWhenReady(fd, buffer, Math.min(buffer.length, limit + 1 - total))
        : readSync(fd, buffer, 0, Math.min(buffer.length, limit + 1 - total), null);
      if (read === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      total += read;
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** readSync on a non-blocking pipe: waits (10 ms at a time) while its writer has nothing yet; 0 at its end. */
function readWhenReady(fd: number, buffer: Buffer, length: number): number {
  for (;;) {
    try {
      return readSync(fd, buffer, 0, length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(PAUSE, 0, 0, 10);
    }
  }
}
