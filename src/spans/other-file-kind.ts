import { readFileSync, statSync } from 'node:fs';

/** Files larger than this are not read again to say what they are: the line's own error stands. */
const MAX_SNIFFED_BYTES = 64 * 1024 * 1024;

/**
 * What a file given as a spans.jsonl is instead, when its first line is not a span and the file
 * is one of agentcheck's other outputs or plainly another format: a report.json (whose spans are
 * in spans.jsonl beside it), a JUnit or other XML file, or one JSON document over several lines.
 * Undefined when it cannot tell: the line's own error is said then.
 */
export function otherFileKind(file: string, firstLine: string): string | undefined {
  const start = firstLine.trimStart();
  if (start.startsWith('<')) return 'is an XML file (a JUnit report?), not a spans.jsonl: agentcheck run writes the spans to spans.jsonl beside it';
  if (start !== '{' && start !== '[') return undefined;
  let value: unknown;
  try {
    if (statSync(file).size > MAX_SNIFFED_BYTES) return undefined;
    value = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (typeof value === 'object' && value !== null && (value as { schema?: unknown }).schema === 'agentcheck.report/1') {
    return 'is an agentcheck report.json, not a spans.jsonl: the run wrote its spans to spans.jsonl beside it';
  }
  return 'holds one JSON document over several lines; expected a spans.jsonl file, one JSON span per line';
}
