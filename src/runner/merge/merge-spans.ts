import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { once } from 'node:events';

/** The spans file `agentcheck run` writes beside report.json. */
const SPANS_FILE = 'spans.jsonl';

/**
 * Concatenates the spans.jsonl found beside each input report into OUT/spans.jsonl, so the merged
 * report stays re-scorable. Returns the input reports that had none beside them (their rows'
 * spans are missing from the merged file; all of them: nothing is written). Written to a temp
 * file first: OUT may be the folder of an input whose spans are still being read.
 */
export async function mergeSpanFiles(reportFiles: readonly string[], out: string, cwd: string): Promise<string[]> {
  const beside = reportFiles.map((file) => ({ file, spans: join(dirname(resolve(cwd, file)), SPANS_FILE) }));
  const missing = beside.filter(({ spans }) => !existsSync(spans)).map(({ file }) => file);
  const unique = [...new Set(beside.map(({ spans }) => spans).filter((path) => existsSync(path)))];
  if (!unique.length) return missing;
  const target = join(out, SPANS_FILE);
  const partial = `${target}.${process.pid}.partial`;
  const sink = createWriteStream(partial);
  try {
    // Copied chunk by chunk: one pipeline per source would pile listeners onto the shared sink.
    for (const source of unique) {
      for await (const chunk of createReadStream(source)) {
        if (!sink.write(chunk)) await once(sink, 'drain');
      }
    }
    await new Promise<void>((done, fail) => sink.end((error?: Error | null) => (error ? fail(error) : done())));
    await rename(partial, target);
  } catch (error) {
    sink.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  return missing;
}
