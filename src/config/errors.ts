import { capEchoed } from './cap-text.js';
import { describeValue } from './describe-value.js';
import { escapeUnprintable, escapeUnprintableInMessage } from './quote-text.js';

/**
 * Typed errors shared by every layer. Each carries a stable `code` so callers and tests can
 * branch on it, and the user-facing message says where the problem is and what was expected.
 */

/** Where in a user's file a problem sits. `path` is a JSON path such as `agent.tools[2].http.url`. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
  path?: string;
}

/** Base class: every agentcheck error has a stable code. */
export class AgentcheckError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A file (agent build, delta, scenario, skill, suite config) does not match its format. */
export class ConfigError extends AgentcheckError {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly path?: string;
  readonly expected: string;

  constructor(location: SourceLocation, expected: string, code = 'CONFIG_INVALID') {
    super(code, formatLocated(checkedArguments(location, expected, code), expected));
    this.file = location.file;
    this.line = location.line;
    this.column = location.column;
    this.path = location.path;
    this.expected = expected;
  }

  /** `file:line:col` (as far as known), for editors and terminals. */
  get where(): string {
    return formatWhere(this);
  }
}

/** The same located problem under another code: a problem moved to the place that names it keeps its own code. */
export function withCode(error: ConfigError, code: string): ConfigError {
  return error.code === code ? error : new ConfigError({ file: error.file, line: error.line, column: error.column, path: error.path }, error.expected, code);
}

/**
 * Several problems found in one pass (a scenario file with three typos): each stays a located
 * ConfigError in `errors`, in line order within each file (files in the order met), the same
 * problem once; the list itself is located at the first one, and its message lists them all,
 * so callers that handle one ConfigError print every problem.
 */
export class ConfigErrors extends ConfigError {
  readonly errors: readonly ConfigError[];

  constructor(errors: readonly ConfigError[]) {
    if (!Array.isArray(errors) || !errors.length || !errors.every((error) => error instanceof ConfigError)) {
      throw new TypeError(`new ConfigErrors(errors): expected a non-empty list of ConfigErrors, got ${describeValue(errors)}`);
    }
    const ordered = inLineOrder(errors.flatMap((error) => (error instanceof ConfigErrors ? error.errors : [error])));
    const [first] = ordered;
    super({ file: first.file, line: first.line, column: first.column, path: first.path }, first.expected, first.code);
    this.errors = ordered;
    this.message = this.errors.map((error) => error.message).join('\n');
  }
}

/** Throws the collected problems: nothing for none, the error itself for one, ConfigErrors for more. */
export function throwConfigErrors(errors: readonly ConfigError[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) {
    const all = new ConfigErrors(errors);
    // Several reports of one problem (shared defaults seen by each scenario) may leave one.
    throw all.errors.length === 1 ? all.errors[0] : all;
  }
}

/**
 * Problems sorted by file (in the order met), then line and column (unlocated last); repeats
 * dropped. The one order of every list of problems, `run`'s and `validate`'s alike.
 */
export function inLineOrder<T extends { file: string; line?: number; column?: number; message: string }>(errors: readonly T[]): T[] {
  const files = new Map<string, number>();
  const unique = new Map<string, T>();
  for (const error of errors) {
    if (!files.has(error.file)) files.set(error.file, files.size);
    const key = `${error.file}\n${error.message}`;
    if (!unique.has(key)) unique.set(key, error);
  }
  const rank = (error: T) => [files.get(error.file) ?? 0, error.line ?? Infinity, error.column ?? Infinity];
  return [...unique.values()].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    return ra[0] - rb[0] || ra[1] - rb[1] || ra[2] - rb[2] || 0;
  });
}

/**
 * Runs `step`, adding the ConfigError(s) it throws to `into` instead of stopping; any other
 * error still propagates. True when the step succeeded.
 */
export function collectConfigErrors(into: ConfigError[], step: () => void): boolean {
  try {
    step();
    return true;
  } catch (error) {
    if (error instanceof ConfigErrors) into.push(...error.errors);
    else if (error instanceof ConfigError) into.push(error);
    else throw error;
    return false;
  }
}

/** A tool failed in a way the harness itself must report (not a tool result the model sees). */
export class ToolError extends AgentcheckError {
  readonly tool: string;
  constructor(tool: string, message: string, code = 'TOOL_FAILED', options?: { cause?: unknown }) {
    super(code, message, options);
    this.tool = tool;
  }
}

/** A model provider failed: HTTP 4xx, retries exhausted, malformed response, script exhausted. */
export class ModelError extends AgentcheckError {
  readonly provider: string;
  readonly status?: number;
  constructor(provider: string, message: string, code = 'MODEL_FAILED', extra: { status?: number; cause?: unknown } = {}) {
    super(code, message, { cause: extra.cause });
    this.provider = provider;
    this.status = extra.status;
  }
}

/** A run could not go on (plan or chain runtime error, routing error, recursion guard). */
export class RunError extends AgentcheckError {}

/**
 * ConfigError is exported (docs/architecture.md) and built by callers' own locators: wrong
 * arguments are a TypeError saying what each must be, never a message reading `undefined: ...`.
 * Returns the location, so the constructor can check before calling super.
 */
function checkedArguments(location: unknown, expected: unknown, code: unknown): SourceLocation {
  const fail = (what: string, got: unknown) => {
    throw new TypeError(`new ConfigError(location, expected, code?): expected ${what}, got ${describeValue(got)}`);
  };
  if (typeof location !== 'object' || location === null || Array.isArray(location)) fail('a location {file, line?, column?, path?} as location', location);
  const { file, line, column, path } = location as Record<string, unknown>;
  if (typeof file !== 'string') fail('the file (a string) as location.file', file);
  if (line !== undefined && !Number.isInteger(line)) fail('a line number or nothing as location.line', line);
  if (column !== undefined && !Number.isInteger(column)) fail('a column number or nothing as location.column', column);
  if (path !== undefined && typeof path !== 'string') fail('a path such as `agent.tools[2]` (a string) or nothing as location.path', path);
  if (typeof expected !== 'string') fail('the text of the problem (a string) as expected', expected);
  if (typeof code !== 'string') fail('an error code (a string) as code', code);
  return location as SourceLocation;
}

export function formatWhere(location: SourceLocation): string {
  let where = location.file;
  if (location.line !== undefined) {
    where += `:${location.line}`;
    if (location.column !== undefined) where += `:${location.column}`;
  }
  return where;
}

/** Longest message one located error prints (docs/security.md "Hostile files"): a safety net behind the capped echoes. */
export const MAX_MESSAGE_CHARS = 2_000;
/** Longest JSON path a located error prints (docs/security.md "Hostile files"). */
export const MAX_PATH_CHARS = 1_000;

function formatLocated(location: SourceLocation, expected: string): string {
  // A path holds the user's keys, which may be huge (a 5 MB key): capped, with room for a
  // legitimately deep path (100 levels of `[0]`). formatPath quotes a key with a control character;
  // a path written as text (`secrets.${name}`) has it escaped here, so none reaches the terminal.
  const at = location.path ? ` at ${capEchoed(escapeUnprintable(location.path), MAX_PATH_CHARS)}` : '';
  // Values are quoted where the message is written (quoteCapped); the whole message is escaped and
  // cut again, so one left unquoted (or a file name) still cannot reach the terminal raw or run on.
  return capEchoed(escapeUnprintableInMessage(`${formatWhere(location)}${at}: ${expected}`), MAX_MESSAGE_CHARS);
}
