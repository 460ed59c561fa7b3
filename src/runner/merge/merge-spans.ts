import { constants, lstatSync, statSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { specialFileKind } from '../../config/special-file.js';
import { isWholeSpanRecord } from '../../spans/span-record-check.js';
import { removeLeftoverAsync } from '../files/remove-leftover.js';
import { keepReplacedMode } from '../files/replaced-file-mode.js';

/** The spans file `agentcheck run` writes beside report.json. */
const SPANS_FILE = 'spans.jsonl';

/** Characters gathered before each write to the merged file. */
const CHUNK_CHARS = 64 * 1024;

/** What merging the spans files did: reports without one beside them, files left out, and lines left out. */
export interface MergedSpans {
  /** Input reports with no spans.jsonl beside them (their rows' spans are not in the merged file). */
  missing: string[];
  /** spans.jsonl files beside an input that were not read: the path shown and why (`is a folder, not a regular file`). */
  skipped: { file: string; why: string }[];
  /** `file:line` of lines that are not whole span records (a cut-off or foreign line, a bad kind or time), left out. */
  unreadable: string[];
  /** Whether OUT/spans.jsonl was written (some input had spans). */
  written: boolean;
  /** When nothing was written: the OUT/spans.jsonl of an earlier run or merge that is still there, else null. */
  earlier: string | null;
}

/**
 * Joins the spans.jsonl found beside each input report into OUT/spans.jsonl, line by line, so the
 * merged report stays re-scorable and queryable: every span on its own line (an input without a
 * final newline does not glue two spans together), and a line that is not a whole span record, as
 * readSpansJsonl reads one, is left out and named rather than spoiling the whole file. A spans.jsonl
 * that is no regular file (a folder, a named pipe, a device, a link to one) or cannot be opened is
 * left out and named, as a missing one is (docs/ci.md, merge). Written to a temp file first,
 * renamed when whole (taking the mode of the file it replaces); a failure throws, saying what
 * could not be read or written and whether the previous OUT/spans.jsonl was kept.
 */
export async function mergeSpanFiles(reportFiles: readonly string[], out: string, cwd: string): Promise<MergedSpans> {
  const shown = (path: string) => relative(cwd, path) || path;
  const beside = reportFiles.map((file) => ({ file, spans: join(dirname(resolve(cwd, file)), SPANS_FILE) }));
  const problems = new Map(beside.map(({ spans }) => [spans, spansFileProblem(spans)]));
  const missing = beside.filter(({ spans }) => problems.get(spans) === 'missing').map(({ file }) => file);
  const skipped: MergedSpans['skipped'] = [];
  const candidates: string[] = [];
  for (const [path, problem] of problems) {
    if (problem === undefined) candidates.push(path);
    else if (problem !== 'missing') skipped.push({ file: shown(path), why: problem });
  }
  const target = join(out, SPANS_FILE);
  const merged = candidates.length ? await writeMerged(candidates, target, shown, skipped) : undefined;
  if (!merged) return { missing, skipped, unreadable: [], written: false, earlier: regularFileAt(target) ? shown(target) : null };
  return { missing, skipped, unreadable: merged.unreadable, written: true, earlier: null };
}

/**
 * Copies the whole span lines of `sources` into a partial file renamed over `target`: the
 * `file:line` of each line left out, or undefined when no source could be opened (nothing is
 * written then). Each source is opened only when its turn comes and closed after, so a merge of
 * thousands of shards never holds more than one open (the process's limit on open files).
 */
async function writeMerged(
  sources: readonly string[],
  target: string,
  shown: (path: string) => string,
  skipped: MergedSpans['skipped'],
): Promise<{ unreadable: string[] } | undefined> {
  const unreadable: string[] = [];
  const partial = `${target}.${process.pid}.partial`;
  let sink: FileHandle | undefined;
  let reading: string | undefined;
  let read = 0;
  try {
    sink = await open(partial, 'w');
    // writeFile, not write: a write cut short by a full disk would leave the merged file cut off mid-line.
    let chunk = '';
    for (const path of sources) {
      let handle: FileHandle;
      // Non-blocking: a file swapped for a named pipe since the check is not waited on for ever.
      try {
        handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
      } catch (error) {
        skipped.push({ file: shown(path), why: `cannot be read: ${openProblem(error)}` });
        continue;
      }
      read++;
      try {
        reading = path;
        let number = 0;
        for await (const line of createInterface({ input: handle.createReadStream({ autoClose: false }), crlfDelay: Infinity })) {
          number++;
          // A byte order mark (an editor's UTF-8 with BOM) is not part of the first span, as readSpansJsonl reads it.
          const text = number === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
          if (text.trim() === '') continue;
          if (!isSpanLine(text)) {
            unreadable.push(`${shown(path)}:${number}`);
            continue;
          }
          chunk += `${text}\n`;
          if (chunk.length < CHUNK_CHARS) continue;
          reading = undefined;
          await sink.writeFile(chunk, 'utf8');
          reading = path;
          chunk = '';
        }
        reading = undefined;
      } finally {
        await handle.close().catch(() => undefined);
      }
    }
    if (read === 0) {
      await sink.close();
      sink = undefined;
      await removeLeftoverAsync(partial);
      return undefined;
    }
    await sink.writeFile(chunk, 'utf8');
    await sink.close();
    sink = undefined;
    await keepReplacedMode(partial, target);
    await rename(partial, target);
  } catch (error) {
    await sink?.close().catch(() => undefined);
    // The failure is what the caller reports; a partial file that stays is said with it.
    const left = await removeLeftoverAsync(partial);
    const what = reading === undefined ? `could not write ${shown(target)}` : `could not read ${shown(reading)}`;
    const kept = regularFileAt(target)
      ? `the previous ${shown(target)} was kept: it holds an earlier run's or merge's spans, not this merge's`
      : 'no spans.jsonl was written';
    throw new Error(`${what}: ${(error as Error).message}; ${kept}${left ? `; ${left}` : ''}`);
  }
  return { unreadable };
}

/**
 * Why the spans.jsonl at `path` is not read: `missing` (nothing there, or a link to nothing), the
 * kind of file that is no regular one (links followed, found by stat alone: a named pipe is never
 * opened, so never waited on), or undefined for a regular file.
 */
function spansFileProblem(path: string): string | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return `cannot be read: ${openProblem(error)}`;
    // A link whose target is gone is there, and said as what it is.
    return isLink(path) ? 'is a symbolic link to nothing (no such file), not a regular file' : 'missing';
  }
  if (stats.isFile()) return undefined;
  const kind = stats.isDirectory() ? 'a folder' : specialFileKind(stats);
  return `is ${isLink(path) ? 'a symbolic link to ' : ''}${kind}, not a regular file`;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function regularFileAt(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** A system error said briefly: `permission denied`, else its code and message. */
function openProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error as Error).message;
}

/**
 * A line holding one whole span record, checked as readSpansJsonl checks it (isWholeSpanRecord):
 * a line kept here is one `spans query` and re-scoring read back, where a bad kind or status, or a
 * time written as null, would make them refuse the whole merged file.
 */
function isSpanLine(line: string): boolean {
  try {
    return isWholeSpanRecord(JSON.parse(line));
  } catch {
    return false;
  }
}
