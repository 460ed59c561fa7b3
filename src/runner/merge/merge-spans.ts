import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { refuseSpecialSpansFile } from '../../spans/jsonl.js';
import { isWholeSpanRecord } from '../../spans/span-record-check.js';
import { removeLeftoverAsync } from '../files/remove-leftover.js';
import { keepReplacedMode } from '../files/replaced-file-mode.js';

/** The spans file `agentcheck run` writes beside report.json. */
const SPANS_FILE = 'spans.jsonl';

/** What merging the spans files did: reports without one beside them, and lines left out. */
export interface MergedSpans {
  /** Input reports with no spans.jsonl beside them (their rows' spans are not in the merged file). */
  missing: string[];
  /** `file:line` of lines that are not whole span records (a cut-off or foreign line, a bad kind or time), left out. */
  unreadable: string[];
  /** Whether OUT/spans.jsonl was written (some input had spans). */
  written: boolean;
}

/**
 * Joins the spans.jsonl found beside each input report into OUT/spans.jsonl, line by line, so the
 * merged report stays re-scorable and queryable: every span on its own line (an input without a
 * final newline does not glue two spans together), and a line that is not a whole span record, as
 * readSpansJsonl reads one, is left out and named rather than spoiling the whole file. Written to
 * a temp file first, renamed when whole (taking the mode of the file it replaces).
 */
export async function mergeSpanFiles(reportFiles: readonly string[], out: string, cwd: string): Promise<MergedSpans> {
  const beside = reportFiles.map((file) => ({ file, spans: join(dirname(resolve(cwd, file)), SPANS_FILE) }));
  const missing = beside.filter(({ spans }) => !existsSync(spans)).map(({ file }) => file);
  const unique = [...new Set(beside.map(({ spans }) => spans).filter((path) => existsSync(path)))];
  const unreadable: string[] = [];
  if (!unique.length) return { missing, unreadable, written: false };
  // Before anything is written: a named pipe beside a shard would block the merge for ever.
  for (const source of unique) refuseSpecialSpansFile(source);
  const target = join(out, SPANS_FILE);
  const partial = `${target}.${process.pid}.partial`;
  const sink = createWriteStream(partial);
  try {
    for (const source of unique) {
      let number = 0;
      for await (const line of createInterface({ input: createReadStream(source), crlfDelay: Infinity })) {
        number++;
        // A byte order mark (an editor's UTF-8 with BOM) is not part of the first span, as readSpansJsonl reads it.
        const text = number === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
        if (text.trim() === '') continue;
        if (!isSpanLine(text)) {
          unreadable.push(`${relative(cwd, source) || source}:${number}`);
          continue;
        }
        if (!sink.write(`${text}\n`)) await once(sink, 'drain');
      }
    }
    await new Promise<void>((done, fail) => sink.end((error?: Error | null) => (error ? fail(error) : done())));
    await keepReplacedMode(partial, target);
    await rename(partial, target);
  } catch (error) {
    sink.destroy();
    // The failure is what the caller reports; a partial file that stays is said with it.
    const left = await removeLeftoverAsync(partial);
    if (left && error instanceof Error) error.message += `; ${left}`;
    throw error;
  }
  return { missing, unreadable, written: true };
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
