import { statSync } from 'node:fs';
import type { SpanRecord } from '../../spans/span-record.js';
import { realPathOf } from '../files/walk-files.js';
import { SpansFile, type SpansFileMode, type SpansFileSystem } from '../report/spans-file.js';

/**
 * Writes a test-run's spans to its --spans `file` (`given` as the user wrote it), or appends a
 * resume's, as `agentcheck run` writes spans.jsonl (SpansFile): a new file goes through a partial
 * file of its own renamed into place, an append that fails is taken back, so a full disk never
 * leaves half a line (docs/cli.md, test-run). Throws an Error saying why, and whether the file
 * was kept as it was.
 */
export function writeTestRunSpans(file: string, spans: readonly SpanRecord[], append: boolean, given: string, fs?: SpansFileSystem): void {
  // A pipe or device (`--spans /dev/stdout`) is written as it is: it has no folder of its own to
  // put a partial file in, and renaming over it would replace the device itself.
  const mode: SpansFileMode = append || isSpecialFile(file) ? 'append' : 'replace';
  // Through links to the file they name, as the run's input checks compare it (spans-not-an-input.ts).
  const path = mode === 'replace' ? realPathOf(file) : file;
  let written: SpansFile;
  try {
    written = new SpansFile(path, fs, mode);
  } catch (error) {
    throw new Error(`could not write the spans to ${given}: ${(error as Error).message}; ${keptClause(mode)}`);
  }
  try {
    written.write(spans);
  } catch (error) {
    // Not a list of span records: nothing of it is kept.
    written.fail((error as Error).message);
  } finally {
    written.close();
  }
  if (written.failure !== null) {
    throw new Error(`could not write the spans to ${given}: ${written.failure}${written.kept ? `; ${keptClause(mode)}` : ''}`);
  }
}

function keptClause(mode: SpansFileMode): string {
  return mode === 'replace' ? 'the previous file was kept' : 'nothing was appended: the file was kept as it was';
}

/** True for a path that is there and is no regular file (links followed): a pipe, a device, a socket. */
function isSpecialFile(path: string): boolean {
  try {
    return !statSync(path).isFile();
  } catch {
    // Not there: written new, through a partial file.
    return false;
  }
}
