import { closeSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';

/**
 * A file's bytes, or its first `limit` + 1 when it is longer (the caller refuses those). A regular
 * file is read whole (its size was checked); a device, a pipe or a /proc file states no size, so
 * it is read only that far, never without end (`/dev/zero` as an agent file).
 */
export function readUpTo(file: string, stats: Stats, limit: number): Buffer {
  if (stats.isFile() && stats.size > 0) return readFileSync(file);
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(limit + 1, 64 * 1024));
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= limit) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, limit + 1 - total), null);
      if (read === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      total += read;
    }
    return Buffer.concat(chunks);
  } finally {
    closeSync(fd);
  }
}
