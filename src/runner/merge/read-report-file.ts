import { readFileSync } from 'node:fs';
import { runKey, type RowId } from '../report/run-key.js';
import { resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { specialFileKindAt } from '../../config/special-file.js';
import { deepestPath } from '../../config/deepest-path.js';
import { jsonSyntaxProblem } from '../../config/json-syntax-error.js';
import { SourceDocument, formatPath, type PathSegments } from '../../config/source.js';
import { ROW_STATUSES, type Report } from '../report/report.js';

/** Transcript message roles (Message). */
const MESSAGE_ROLES = ['user', 'assistant', 'tool'] as const;
/** Check statuses (CheckStatus). */
const CHECK_STATUSES = ['pass', 'fail', 'error'] as const;
/** Reports larger than this get errors without a line: re-parsing them with positions is slow. */
const LOCATE_MAX_CHARS = 2_000_000;
/** summary key -> the row status it counts. */
const SUMMARY_COUNTS = { passed: 'pass', failed: 'fail', errored: 'error', not_run: 'not_run', skipped: 'skipped' } as const;

/** Deeper than any report agentcheck writes (a row's transcript holds the run's own values), far below what overflows the stack. */
const MAX_REPORT_DEPTH = 1_000;

/**
 * Reads a report.json written by `agentcheck run --reporter json` (or `agentcheck merge`), the
 * one reader of `compare` and `merge`. Checks what those commands and the reporters rely on:
 * the schema, every row (id, variant, repeat, status, checks, test_run and the typed optional
 * fields) and the summary against the rows, so a hand-edited or truncated report is refused
 * with `file at scenarios[N]: expected ...` (ConfigError, exit 2) rather than crashing a
 * reporter or being counted wrongly. `file` is shown as given; it is read relative to `cwd`.
 */
export function readReportFile(file: string, cwd: string): Report {
  const text = readText(file, resolve(cwd, file));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { reason, ...pos } = jsonSyntaxProblem(text, error);
    throw new ConfigError({ file, ...pos }, `is not valid JSON (${reason}): expected a report.json`, 'CONFIG_SYNTAX');
  }
  // Checked before anything walks it: a file nested thousands deep would overflow the stack.
  const deep = deepestPath(value, MAX_REPORT_DEPTH);
  if (deep)
    throw new ConfigError(
      { file, path: formatPath(deep.slice(0, 1)) || undefined },
      `is nested more than ${MAX_REPORT_DEPTH} levels deep: not an agentcheck report.json`,
    );
  const locate = reportLocator(file, text);
  if (!isObject(value) || value.schema !== 'agentcheck.report/1') {
    throw new ConfigError(
      { file },
      `expected "schema": "agentcheck.report/1", got ${show(isObject(value) ? value.schema : value)}: not an agentcheck report.json`,
    );
  }
  if (!Array.isArray(value.scenarios)) throw locate(['scenarios'], `expected an array of scenario rows, got ${show(value.scenarios)}`);
  value.scenarios.forEach((row, index) => {
    const problem = rowProblem(row);
    if (problem) throw locate(['scenarios', index, ...problem.at], `expected ${problem.expected}`, ['scenarios', index]);
  });
  // A row given twice would be counted twice (compare pools repeats, merge owns each run once).
  const seen = new Map<string, number>();
  (value.scenarios as RowId[]).forEach((row, index) => {
    const key = runKey(row);
    const first = seen.get(key);
    if (first !== undefined) {
      throw locate(
        ['scenarios', index],
        `a second row for "${row.id}" [${row.variant}] repeat ${row.repeat} (also scenarios[${first}]): a report holds each scenario x variant x repeat once`,
        ['scenarios', index],
      );
    }
    seen.set(key, index);
  });
  if (value.interrupted !== undefined && typeof value.interrupted !== 'boolean')
    throw locate(['interrupted'], `expected true or false, got ${show(value.interrupted)}`);
  if (value.stray_errors !== undefined) {
    const stray = value.stray_errors;
    if (!isObject(stray) || !Number.isInteger(stray.count) || (stray.count as number) < 1 || typeof stray.first !== 'string')
      throw locate(['stray_errors'], `expected {count: a whole number >= 1, first: a string}, got ${show(stray)}`);
  }
  checkSummary(value.summary, value.scenarios as Array<{ status: string }>, locate);
  return value as unknown as Report;
}

/** Reads the file, saying why it cannot be (not found, a folder, permission denied). */
function readText(file: string, path: string): string {
  // A named pipe would block the read for ever: refused before it is opened.
  const special = specialFileKindAt(path);
  if (special) throw new ConfigError({ file }, `is ${special}, not a regular file; expected a report.json`, 'CONFIG_NOT_A_FILE');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw readError(file, error);
  }
  // An editor may have saved it with a byte order mark; JSON.parse refuses one.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A ConfigError for a report that could not be opened or read: only a missing one is "not found". */
function readError(file: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT')
    return new ConfigError({ file }, 'report not found: expected the report.json of an `agentcheck run --reporter json`', 'CONFIG_NOT_FOUND');
  if (code === 'EISDIR') return new ConfigError({ file }, 'is a folder; expected a report.json file', 'CONFIG_NOT_FOUND');
  if (code === 'EACCES' || code === 'EPERM') return new ConfigError({ file }, 'cannot be read: permission denied', 'CONFIG_UNREADABLE');
  return new ConfigError({ file }, `cannot be read: ${code ?? (error as Error)?.message ?? String(error)}`, 'CONFIG_UNREADABLE');
}

type ReportLocator = (path: PathSegments, expected: string, shownPath?: PathSegments) => ConfigError;

/**
 * Errors at a path of the report, with the line where the text is small enough to re-parse
 * with positions (only on the error path: a valid report is parsed once, by JSON.parse).
 * `shownPath` is the path printed, when coarser than the one located (a row, not its field).
 */
function reportLocator(file: string, text: string): ReportLocator {
  return (path, expected, shownPath = path) => {
    let position: { line?: number; column?: number } = {};
    if (text.length <= LOCATE_MAX_CHARS) {
      try {
        position = SourceDocument.parse(file, text).locate(path);
      } catch {
        // Positions are a courtesy: the path still says where.
      }
    }
    return new ConfigError({ file, ...position, path: formatPath(shownPath) || undefined }, expected);
  };
}

/** The first problem of a row: which field (relative to the row) and what was expected. */
function rowProblem(row: unknown): { at: PathSegments; expected: string } | null {
  const bad = (field: string, expected: string, value: unknown) => ({ at: [field], expected: `${field} ${expected}, got ${show(value)}` });
  if (!isObject(row)) return { at: [], expected: `a scenario row {id, variant, repeat, status, checks, test_run, ...}, got ${show(row)}` };
  if (typeof row.id !== 'string' || row.id === '') return bad('id', 'to be a non-empty string (file#name)', row.id);
  if (typeof row.variant !== 'string' || row.variant === '') return bad('variant', 'to be a non-empty string', row.variant);
  if (!Number.isInteger(row.repeat) || (row.repeat as number) < 0) return bad('repeat', 'to be a whole number >= 0', row.repeat);
  if (!ROW_STATUSES.includes(row.status as never)) return bad('status', `to be one of ${ROW_STATUSES.join(', ')}`, row.status);
  if (!Array.isArray(row.checks)) return bad('checks', 'to be a list of {id, kind, status, reason}', row.checks);
  for (const [index, check] of row.checks.entries()) {
    const problem = checkProblem(check);
    if (problem)
      return { at: ['checks', index, ...problem.at], expected: `checks[${index}]${problem.at.length ? `.${problem.at[0]}` : ''} ${problem.expected}` };
  }
  if (row.test_run !== null) {
    if (!isObject(row.test_run)) return bad('test_run', 'to be a test_run object or null', row.test_run);
    const run = row.test_run;
    if (!Array.isArray(run.tools) || run.tools.some((tool) => !isObject(tool) || typeof tool.name !== 'string' || !isCount(tool.called))) {
      return { at: ['test_run', 'tools'], expected: `test_run.tools to be a list of {name, called, returned, errors}, got ${show(run.tools)}` };
    }
    // The statistics read a tool's calls by server (tool-selection.ts).
    const byServer = run.tools.findIndex((tool) => tool.servers !== undefined && !(isObject(tool.servers) && Object.values(tool.servers).every(isCount)));
    if (byServer >= 0) {
      const servers = run.tools[byServer].servers;
      return { at: ['test_run', 'tools', byServer, 'servers'], expected: `test_run.tools[${byServer}].servers to be {server: count}, got ${show(servers)}` };
    }
    if (typeof run.verdict !== 'string') return { at: ['test_run', 'verdict'], expected: `test_run.verdict to be a string, got ${show(run.verdict)}` };
    for (const key of ['verdict_reason', 'trace_id', 'output', 'stop_reason']) {
      if (run[key] !== undefined && typeof run[key] !== 'string')
        return { at: ['test_run', key], expected: `test_run.${key} to be a string, got ${show(run[key])}` };
    }
  }
  for (const key of ['name', 'file', 'reason', 'expect_failure']) {
    if (row[key] !== undefined && typeof row[key] !== 'string') return bad(key, 'to be a string', row[key]);
  }
  for (const key of ['turns', 'duration_ms']) {
    if (row[key] !== undefined && !isCount(row[key])) return bad(key, 'to be a number >= 0', row[key]);
  }
  for (const key of ['tags', 'expected_tools']) {
    if (row[key] !== undefined && !(Array.isArray(row[key]) && row[key].every((item: unknown) => typeof item === 'string')))
      return bad(key, 'to be a list of strings', row[key]);
  }
  if (row.nested_calls !== undefined && !(isObject(row.nested_calls) && Object.values(row.nested_calls).every(isCount))) {
    return bad('nested_calls', 'to be {tool: count}', row.nested_calls);
  }
  if (
    row.flow_calls !== undefined &&
    !(Array.isArray(row.flow_calls) && row.flow_calls.every((tool) => isObject(tool) && typeof tool.name === 'string' && isCount(tool.called)))
  ) {
    return bad('flow_calls', 'to be a list of {name, called}', row.flow_calls);
  }
  if (row.no_expectation !== undefined && row.no_expectation !== true) return bad('no_expectation', 'to be true when present', row.no_expectation);
  if (row.no_choices !== undefined && row.no_choices !== true) return bad('no_choices', 'to be true when present', row.no_choices);
  if (row.error !== undefined && row.error !== null && !(isObject(row.error) && typeof row.error.type === 'string' && typeof row.error.message === 'string')) {
    return bad('error', 'to be null or {type, message}', row.error);
  }
  if (
    row.usage !== undefined &&
    !(
      isObject(row.usage) &&
      isCount(row.usage.input_tokens) &&
      isCount(row.usage.output_tokens) &&
      (row.usage.cached_input_tokens === undefined || isCount(row.usage.cached_input_tokens)) &&
      (row.usage.reasoning_tokens === undefined || isCount(row.usage.reasoning_tokens))
    )
  ) {
    return bad('usage', 'to be {input_tokens, output_tokens}', row.usage);
  }
  if (row.transcript !== undefined) {
    if (!Array.isArray(row.transcript)) return bad('transcript', 'to be a list of messages {role, content, ...}', row.transcript);
    const index = row.transcript.findIndex(
      (message: unknown) => !isObject(message) || !MESSAGE_ROLES.includes(message.role as never) || typeof message.content !== 'string',
    );
    if (index >= 0)
      return {
        at: ['transcript', index],
        expected: `transcript[${index}] to be a message {role: user|assistant|tool, content, ...}, got ${show(row.transcript[index])}`,
      };
  }
  return null;
}

function checkProblem(check: unknown): { at: PathSegments; expected: string } | null {
  if (!isObject(check)) return { at: [], expected: `to be a check result {id, kind, status, reason}, got ${show(check)}` };
  for (const key of ['id', 'kind', 'reason']) {
    if (typeof check[key] !== 'string') return { at: [key], expected: `to be a string, got ${show(check[key])}` };
  }
  if (!CHECK_STATUSES.includes(check.status as never))
    return { at: ['status'], expected: `to be one of ${CHECK_STATUSES.join(', ')}, got ${show(check.status)}` };
  if (check.evidence !== undefined && !Array.isArray(check.evidence))
    return { at: ['evidence'], expected: `to be a list of span ids, got ${show(check.evidence)}` };
  return null;
}

/** The summary must count the rows: a mismatch means rows were lost or the file was edited. */
function checkSummary(summary: unknown, rows: ReadonlyArray<{ status: string }>, locate: ReportLocator): void {
  if (!isObject(summary)) throw locate(['summary'], `expected the summary {total, passed, failed, errored, not_run, skipped}, got ${show(summary)}`);
  if (summary.total !== rows.length) {
    throw locate(
      ['summary', 'total'],
      `summary.total is ${show(summary.total)} but the report has ${rows.length} scenario row(s); the report is incomplete or was edited (write it again with agentcheck run --reporter json)`,
    );
  }
  for (const [key, status] of Object.entries(SUMMARY_COUNTS)) {
    if (summary[key] === undefined) continue; // older reports may lack a count
    const counted = rows.filter((row) => row.status === status).length;
    if (summary[key] !== counted) {
      throw locate(
        ['summary', key],
        `summary.${key} is ${show(summary[key])} but ${counted} row(s) have status ${status}; the report is incomplete or was edited`,
      );
    }
  }
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON from disk, read field by field
function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
