import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createFolders } from '../../config/create-folders.js';
import { RunError } from '../../config/errors.js';
import { assertPathArgument } from '../../config/path-argument.js';
import type { Checkpoint, Checkpointer } from './checkpointer.js';

/**
 * Appends checkpoints to a JSONL file, one JSON object a line, so a paused run can be resumed
 * by another process. Writes are serialised, so lines of concurrent runs never interleave.
 */
export class JsonlCheckpointer implements Checkpointer {
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {
    assertPathArgument(file, 'JsonlCheckpointer', 'file', 'a file path');
  }

  save(checkpoint: Checkpoint): Promise<void> {
    const line = `${JSON.stringify(checkpoint)}\n`;
    const write = this.writing.then(async () => {
      createFolders(path.dirname(this.file));
      // Owner-only: a checkpoint holds the run's messages as they are (docs/workflows.md).
      await appendFile(this.file, line, { encoding: 'utf8', mode: 0o600 });
    });
    // A failed write is reported to its caller but does not block later ones.
    this.writing = write.catch(() => undefined);
    return write;
  }

  async list(traceId: string): Promise<Checkpoint[]> {
    return (await this.readAll()).filter((checkpoint) => checkpoint.traceId === traceId);
  }

  async latest(traceId: string): Promise<Checkpoint | undefined> {
    const saved = await this.list(traceId);
    return saved[saved.length - 1];
  }

  private async readAll(): Promise<Checkpoint[]> {
    await this.writing;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return text.split('\n').flatMap((line, index) => {
      if (!line.trim()) return [];
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new RunError('CHECKPOINT_CORRUPT', `${this.file}:${index + 1}: not a JSON checkpoint line`);
      }
      // JSON that is no checkpoint (a stray log line) would be listed, or skipped without a word.
      if (!isCheckpointLine(value)) {
        throw new RunError('CHECKPOINT_CORRUPT', `${this.file}:${index + 1}: not a checkpoint (expected an object with string "id" and "traceId")`);
      }
      return [value];
    });
  }
}

function isCheckpointLine(value: unknown): value is Checkpoint {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { id, traceId } = value as Record<string, unknown>;
  return typeof id === 'string' && typeof traceId === 'string';
}
