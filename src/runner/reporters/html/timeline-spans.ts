import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ATTR } from '../../../spans/conventions.js';
import { refuseSpecialSpansFile } from '../../../spans/jsonl.js';
import type { SpanRecord } from '../../../spans/span-record.js';

/** The spans a timeline needs, grouped by trace, and how many lines could not be read. */
export interface TimelineSpans {
  byTrace: Map<string, SpanRecord[]>;
  /** Lines of spans.jsonl that were not a span object (a truncated file, a partial write). */
  unreadable: number;
}

const TRACE_ID = /"trace_id":"([^"]*)"/;

/**
 * True for the spans a lane draws: the root (its start is the lane's zero), model calls and tool
 * calls; and an external agent's own spans, which tell a call nested in another from one of its
 * model's, as the evidence does (isNestedCall).
 */
export function isTimelineSpan(span: Pick<SpanRecord, 'name' | 'parent_id' | 'attributes'>): boolean {
  return span.parent_id === null || span.name.startsWith('execute_tool') || span.name.startsWith('chat') || span.attributes?.[ATTR.externalExported] === true;
}

/**
 * Streams spans.jsonl and keeps only the timeline spans of `traceIds`, or returns null when the
 * file does not exist. A 10,000-run suite writes tens of megabytes of spans; checking the trace
 * id with a regex before JSON.parse keeps the cost to the traces the page actually draws.
 * Unreadable lines are counted, not thrown: a damaged spans file must not cost the whole page.
 */
export async function readTimelineSpans(file: string, traceIds: ReadonlySet<string>): Promise<TimelineSpans | null> {
  const byTrace = new Map<string, SpanRecord[]>();
  let unreadable = 0;
  // A named pipe left where spans.jsonl goes would hold the page (and the command) for ever.
  refuseSpecialSpansFile(file);
  const input = createReadStream(file, 'utf8');
  try {
    await new Promise<void>((ready, fail) => {
      input.once('open', () => ready());
      input.once('error', fail);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const id = TRACE_ID.exec(line)?.[1];
    if (id !== undefined && !traceIds.has(id)) continue;
    let span: SpanRecord;
    try {
      span = JSON.parse(line) as SpanRecord;
    } catch {
      unreadable++;
      continue;
    }
    if (!span || typeof span !== 'object' || typeof span.trace_id !== 'string' || typeof span.name !== 'string') {
      unreadable++;
      continue;
    }
    if (!traceIds.has(span.trace_id) || !isTimelineSpan(span)) continue;
    let list = byTrace.get(span.trace_id);
    if (!list) byTrace.set(span.trace_id, (list = []));
    list.push(span);
  }
  return { byTrace, unreadable };
}
