import { describe, expect, it } from 'vitest';
import { pseudoFileSystemOf } from '../../../src/runner/files/walk-files.js';
import { checkRunsDir, runsDir } from '../../../src/runner/resume/run-checkpoint-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

// Path strings only: nothing here is created or written under /dev, /proc or /sys.
describe('the runs folder a paused test-run keeps its checkpoint and workspace copy in', () => {
  it.skipIf(process.platform !== 'linux')('is refused in a kernel pseudo file system, as --spans /dev/full would put it in /dev', () => {
    for (const spans of ['/dev/full', '/dev/shm/x/s.jsonl', '/proc/self/s.jsonl', '/sys/kernel/s.jsonl']) {
      const dir = runsDir('/tmp', spans);
      const pseudo = pseudoFileSystemOf(dir);
      expect(pseudo, spans).toMatch(/^\/(dev|proc|sys)$/);
      expect(() => checkRunsDir(dir), spans).toThrow(
        `its folder ${dir} (the --spans file's) is under ${pseudo}, the kernel's pseudo files, where no checkpoint or workspace copy is kept; give --spans a file in an ordinary folder`,
      );
    }
  });

  it('is taken in an ordinary folder', () => {
    const dir = tempDir();
    expect(() => checkRunsDir(runsDir(dir, 'out/s.jsonl'))).not.toThrow();
    expect(() => checkRunsDir(runsDir(dir))).not.toThrow();
  });
});
