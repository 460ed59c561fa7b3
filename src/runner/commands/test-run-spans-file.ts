import { fstatSync, readFileSync, statSync } from 'node:fs';
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
export function writeTestRunSpans(file: string, spans: readonly SpanRecord[], append: boolean, given: string, fileSystem?: SpansFileSystem): void {
  // The process's own output (`--spans /dev/stdout`) is written through its descriptor, so the
  // spans and the result share it in order, and the file stdout is redirected to (`> log.txt`)
  // is written, never renamed over.
  // A failed write is taken back only when that descriptor appends (`>>`): cutting a file opened
  // with `>` would leave its position past the end, and the result would follow a hole of zeros.
  const stream = redirectedToFile(ownStreamDescriptor(file));
  // A pipe or device is written as it is: it has no folder of its own to put a partial file in,
  // and renaming over it would replace the device itself.
  const mode: SpansFileMode = stream !== null ? { descriptor: stream, takeBack: appends(stream) } : append || isSpecialFile(file) ? 'append' : 'replace';
  // Through links to the file they name, as the run's input checks compare it (spans-not-an-input.ts).
  const path = mode === 'replace' ? realPathOf(file) : file;
  const before = mode === 'replace' ? sizeBefore(path) : null;
  let written: SpansFile;
  try {
    written = new SpansFile(path, fileSystem, mode);
  } catch (error) {
    throw new Error(`could not write the spans to ${given}: ${(error as Error).message}; ${keptClause(mode, before, append, path)}`);
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
    throw new Error(`could not write the spans to ${given}: ${written.failure}${written.kept ? `; ${keptClause(mode, before, append, path)}` : ''}`);
  }
}

/** What a failed write to `path` left, by the file's size before it (null: there was none). */
function keptClause(mode: SpansFileMode, before: number | null, append: boolean, path: string): string {
  // resume's append, or test-run's to a stdout that appends (`>>`), whose failed write is taken back.
  if (append || (typeof mode === 'object' && mode.takeBack)) {
    // A file replaced by a folder while the run ran: there is no file left to have kept.
    const gone = mode === 'append' ? noFileAt(path) : undefined;
    return gone ? `nothing was appended: ${gone}` : 'nothing was appended: the file was kept as it was';
  }
  // A path that was no regular file when the spans came (a folder put there meanwhile, a device).
  if (mode !== 'replace') return 'nothing was written';
  // test-run makes a missing FILE, empty, before the run, to find an unusable path early.
  if (before === 0) return 'the file was left empty';
  return before === null ? 'no file was written' : 'the previous file was kept';
}

/** Why there is no file at `path` any more (a folder is there now, or nothing), or undefined when there is one. */
function noFileAt(path: string): string | undefined {
  try {
    return statSync(path).isDirectory() ? 'there is no file there any more (a folder is there now)' : undefined;
  } catch {
    return 'there is no file there any more';
  }
}

/** The size of the file at `path`, or null when there is none. */
function sizeBefore(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/**
 * The descriptor a path names when it is one of this process's own open files: `/dev/stdout` (1),
 * `/dev/stderr` (2), `/dev/fd/N` or `/proc/self/fd/N`; null for any other path.
 */
function ownStreamDescriptor(path: string): number | null {
  if (path === '/dev/stdout') return 1;
  if (path === '/dev/stderr') return 2;
  const match = /^\/(?:dev|proc\/self)\/fd\/(\d+)$/.exec(path);
  return match ? Number(match[1]) : null;
}

/**
 * `fd` when it is open on a regular file (stdout redirected to one); else null: a pipe or terminal
 * is opened by its path as before, since the process's own pipe may be non-blocking (EAGAIN).
 */
function redirectedToFile(fd: number | null): number | null {
  if (fd === null) return null;
  try {
    return fstatSync(fd).isFile() ? fd : null;
  } catch {
    return null;
  }
}

/** Whether `fd` was opened to append (O_APPEND), as Linux's /proc/self/fdinfo says; false where it cannot tell. */
function appends(fd: number): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
    return flags !== undefined && (parseInt(flags, 8) & O_APPEND) !== 0;
  } catch {
    return false;
  }
}

/** Linux's O_APPEND flag (octal 02000), as /proc/self/fdinfo prints flags. */
const O_APPEND = 0o2000;

/** True for a path that is there and is no regular file (links followed): a pipe, a device, a socket. */
function isSpecialFile(path: string): boolean {
  try {
    return !statSync(path).isFile();
  } catch {
    // Not there: written new, through a partial file.
    return false;
  }
}
