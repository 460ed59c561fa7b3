import { closeSync, fstatSync, ftruncateSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { SpansFileSystem } from '../../src/runner/report/spans-file.js';

/** Node's file system with a disk that fills up after `room` bytes: the write that fills it is short, the next fails with ENOSPC. */
export function fullAfter(room: number): SpansFileSystem {
  let used = 0;
  return {
    openSync,
    fstatSync,
    ftruncateSync,
    closeSync,
    renameSync,
    rmSync,
    writeSync(fd, data, offset, length) {
      if (used >= room) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const taken = Math.min(length, room - used);
      used += taken;
      return writeSync(fd, data, offset, taken);
    },
  };
}
