import { randomBytes } from 'node:crypto';
import { open, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createFolders } from '../../config/create-folders.js';
import { removeLeftoverAsync } from '../files/remove-leftover.js';
import { keepReplacedMode } from '../files/replaced-file-mode.js';

/** Bytes gathered before one write: large enough that a 50,000-row report is a few hundred writes. */
const WRITE_BATCH_CHARS = 1 << 20;

/**
 * Writes `text` to `path` through a temp file in the same folder and a rename, creating the
 * folder. A reader (or a CI step after a kill) sees the old file or the new one, never half.
 * `mode`: the file's permissions (less the umask); without it, those of the file replaced, else
 * 0o666 less the umask.
 */
export async function writeFileAtomic(path: string, text: string, options: { mode?: number } = {}): Promise<void> {
  // The temp file is new, so `mode` holds (less the umask) from its first byte; a mode asked for
  // (a checkpoint's owner-only file) is never widened to the replaced file's.
  const write = (temp: string) => writeFile(temp, text, { encoding: 'utf8', mode: options.mode });
  await replaceAtomically(path, write, options.mode === undefined);
}

/**
 * writeFileAtomic for text given in pieces, the mode of the file replaced kept: the chunks are
 * written in batches as they are produced, so the whole text is never in memory at once.
 */
export async function writeChunksAtomic(path: string, chunks: Iterable<string>): Promise<void> {
  await replaceAtomically(path, async (temp) => {
    const file = await open(temp, 'w');
    try {
      let batch = '';
      for (const chunk of chunks) {
        batch += chunk;
        if (batch.length >= WRITE_BATCH_CHARS) {
          await file.writeFile(batch, 'utf8');
          batch = '';
        }
      }
      if (batch) await file.writeFile(batch, 'utf8');
    } finally {
      await file.close();
    }
  });
}

/** Writes `path` through a temp file renamed over it; `keepMode`: the temp file first takes the mode of the file it replaces. */
async function replaceAtomically(path: string, write: (temp: string) => Promise<void>, keepMode = true): Promise<void> {
  const dir = dirname(path);
  createFolders(dir);
  // Same folder, so the rename never crosses a file system (rename is only atomic within one).
  // The dot prefix keeps the temp file out of globs such as `reports/*.json`.
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // No fsync: the guarantee wanted is against a killed process, not a power cut, and an
    // fsync of a large report would cost more than the rest of a 10,000-row write.
    await write(temp);
    if (keepMode) await keepReplacedMode(temp, path);
    await rename(temp, path);
  } catch (error) {
    // The write's own failure is what the caller reports; a temp file that stays is said with it.
    const left = await removeLeftoverAsync(temp);
    if (left && error instanceof Error) error.message += `; ${left}`;
    throw error;
  }
}
