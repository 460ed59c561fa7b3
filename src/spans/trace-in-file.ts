import { ConfigError } from '../config/errors.js';
import type { SpanRecord } from './span-record.js';

/**
 * Refuses a trace id the spans of a file do not hold (docs/cli.md, spans query; docs/mcp.md,
 * query_spans): a mistyped or cut id would otherwise read as a run that made no calls.
 */
export function checkTraceInFile(spans: readonly SpanRecord[], traceId: string, file: string): void {
  const traces = new Set(spans.map((span) => span.trace_id));
  if (traces.has(traceId)) return;
  // The code leads the text so the CLI line and MCP's tool error both carry it, as other codes are printed.
  throw new ConfigError(
    { file },
    `UNKNOWN_TRACE: no trace ${traceId} here (the file holds ${traces.size} trace(s)); give a trace_id a run printed, whole`,
    'UNKNOWN_TRACE',
  );
}
