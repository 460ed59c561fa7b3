import { join } from 'node:path';
import type { Report } from '../report/report.js';
import { reportJsonChunks } from '../report/report-json-chunks.js';
import { writeChunksAtomic } from '../report/write-atomic.js';
import type { Reporter, ReporterContext } from './reporter.js';
import { JSON_REPORT_FILE } from './report-files.js';

export { JSON_REPORT_FILE };

/** Writes OUT/report.json: the Report exactly as the runner built it (schema agentcheck.report/1). */
export class JsonReporter implements Reporter {
  readonly name = 'json';
  readonly file = JSON_REPORT_FILE;
  readonly rowAccess = 'streamed';

  async onRunEnd(report: Readonly<Report>, ctx: ReporterContext): Promise<void> {
    // Indented because people open it and diff it; a trailing newline keeps `cat` and git tidy.
    // Written row by row: the text of a large report is never held whole, nor, with
    // ctx.wholeRows, its rows.
    await writeChunksAtomic(join(ctx.out, JSON_REPORT_FILE), reportJsonChunks(report, ctx.wholeRows?.texts()));
  }
}
