import { jsonErrorReason } from '../config/json-syntax-error.js';
import { createReadStream } from 'node:fs';
import { ConfigError } from '../config/errors.js';
import { formatPath } from '../config/source.js';
import { assertPathArgument } from '../config/path-argument.js';
import { specialFileProblem } from '../config/special-file.js';
import { otherFileKind } from './other-file-kind.js';
import type { SpanRecord } from './span-record.js';
import { isSpanRecord, isWholeSpanRecord, spanListProblem, wholeSpanRecordProblems, type SpanRecordProblem } from './span-record-check.js';

/**
 * Serialises span records as JSON Lines (one span per line). What is not a list of whole span
 * records (docs/spans.md) is a ConfigError at it (`spansToJsonl at spans[2].start_ms: ...`), never
 * a TypeError, a line per character or a time written as null.
 */
export function spansToJsonl(spans: readonly SpanRecord[]): string {
  // A caller's records may be anyone's: each is held to the whole record readSpansJsonl reads back,
  // in a pass of its own, so spanJsonLines (every run's SpansFile) keeps its shallow check.
  if (!Array.isArray(spans)) throw notSpanList(spans);
  for (let index = 0; index < spans.length; index++) {
    if (isWholeSpanRecord(spans[index])) continue;
    const problem = firstProblem(spans[index]);
    throw new ConfigError({ file: 'spansToJsonl', path: formatPath(['spans', index, ...problem.path]) }, problem.expected);
  }
  // A caller's records may have been changed since they were made: JSON.stringify writes each.
  let out = '';
  for (const line of spanJsonLines(spans, (span) => JSON.stringify(span))) out += `${line}\n`;
  return out;
}

/**
 * Each span record's JSON line (without its newline) by `serialize`, checked as spansToJsonl
 * checks them: what spans.jsonl writers (spansToJsonl, the run's SpansFile) hold in common.
 */
export function spanJsonLines(spans: readonly SpanRecord[], serialize: (span: SpanRecord) => string): string[] {
  // Every run's spans pass here: the list is checked once, each record in the loop with the shallow
  // check querySpans scans with (a few field reads beside the serialisation that dominates).
  if (!Array.isArray(spans)) throw notSpanList(spans);
  const lines: string[] = [];
  let index = 0;
  try {
    for (; index < spans.length; index++) {
      const span = spans[index];
      if (!isSpanRecord(span)) throw notSpanList(spans);
      lines.push(serialize(span));
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // A value JSON has no form for (a BigInt, a cycle) inside an attribute.
    throw new ConfigError({ file: 'spansToJsonl', path: `spans[${index}]` }, `cannot be written as JSON: ${(error as Error).message}`);
  }
  return lines;
}

/** The first of wholeSpanRecordProblems, for a value isWholeSpanRecord refused. */
function firstProblem(value: unknown): SpanRecordProblem {
  return wholeSpanRecordProblems(value)[0] ?? { path: [], expected: 'expected a whole span record' };
}

function notSpanList(spans: unknown): ConfigError {
  return spanListProblem(spans, ['spans'], (path, expected) => new ConfigError({ file: 'spansToJsonl', path: formatPath(path) }, expected))!;
}

/**
 * Reads a spans.jsonl file; a malformed line (not JSON, or not a whole span record) is a ConfigError
 * naming the line, and so is a file that cannot be read (missing, a folder, no permission, a
 * named pipe, socket or device). A leading UTF-8 BOM is ignored.
 */
export async function readSpansJsonl(file: string): Promise<SpanRecord[]> {
  assertPathArgument(file, 'readSpansJsonl', 'file', 'a file path');
  refuseSpecialSpansFile(file);
  const spans: SpanRecord[] = [];
  // Loaded here: node:readline costs about 7 ms at start-up, and writers (every run) never read.
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const read of lines) {
      lineNumber++;
      // A byte order mark (an editor's UTF-8 with BOM) is not part of the first span.
      const line = lineNumber === 1 && read.charCodeAt(0) === 0xfeff ? read.slice(1) : read;
      if (!line.trim()) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        // A report.json or junit.xml given in its place is said to be one, not quoted a parse error.
        const other = lineNumber === 1 ? otherFileKind(file, line) : undefined;
        if (other) throw new ConfigError({ file }, other);
        throw new ConfigError({ file, line: lineNumber, column: 1 }, `expected one JSON span per line: ${jsonErrorReason((error as Error).message)}`);
      }
      // Checked here, where the line is known: queries and evidence would otherwise fail mid-scan.
      // Whole, as spansToJsonl writes them: a misspelt status would count a failed call as passed.
      if (!isWholeSpanRecord(parsed)) {
        const problem = firstProblem(parsed);
        const field = problem.path.length ? `${formatPath(problem.path)}: ` : '';
        throw new ConfigError({ file, line: lineNumber, column: 1 }, `${field}${problem.expected}`);
      }
      spans.push(parsed as SpanRecord);
    }
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw readError(file, error);
  }
  return spans;
}

/**
 * Refuses a spans.jsonl path that is a named pipe, socket or device (links followed), found by
 * stat alone: opening a pipe with no writer blocks for ever, deaf to signals and process.exit,
 * and a device never ends (docs/cli.md, spans query). Every reader of a spans.jsonl calls it.
 */
export function refuseSpecialSpansFile(file: string): void {
  const problem = specialFileProblem(file, 'a spans.jsonl file');
  if (problem) throw problem;
}

/** Why the file could not be read, as a ConfigError (never the raw system error). */
function readError(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return new ConfigError({ file }, 'file not found', 'CONFIG_NOT_FOUND');
  if (code === 'EISDIR') return new ConfigError({ file }, 'is a folder; expected a spans.jsonl file', 'CONFIG_NOT_FOUND');
  if (code === 'EACCES' || code === 'EPERM') return new ConfigError({ file }, 'cannot be read: permission denied', 'CONFIG_UNREADABLE');
  if (typeof code === 'string') return new ConfigError({ file }, `cannot be read: ${code} (${(error as Error).message})`, 'CONFIG_UNREADABLE');
  return error;
}
