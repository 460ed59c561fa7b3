import { resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { readSpansJsonl } from '../../spans/jsonl.js';
import { querySpans, validateQuery } from '../../spans/query.js';
import { presentAttributes, validateOwnAttributeKeys } from '../../spans/own-attribute-keys.js';
import { memoryLocator, type Locator } from '../../config/assert-format.js';
import { EXIT, reportError, type CommandIO } from './cli-io.js';
import { readStrictJson } from '../../config/strict-json.js';
import { checkTraceInFile } from '../../spans/trace-in-file.js';

/** `agentcheck spans query FILE.jsonl [--trace ID] [--where JSON] [--limit N]`: prints `{count, spans}` as JSON. */
export async function spansQueryCommand(file: string, options: { trace?: string; where?: string; limit?: number }, io: CommandIO): Promise<number> {
  try {
    if (options.trace !== undefined && options.trace.trim() === '') {
      throw new ConfigError({ file: '--trace' }, 'expected a trace id, got an empty string');
    }
    const where = options.where === undefined ? undefined : parseWhere(options.where);
    // --where takes a filtering object (or one condition), or a whole query {filtering, windowing}.
    const whole = where && ('filtering' in where || 'windowing' in where) ? where : undefined;
    const filtering = whole ? whole.filtering : where;
    // Checked as the user wrote it, before the --trace condition wraps it: paths are relative to --where.
    // As in a `spans` check: an agentcheck.* / gen_ai.* key agentcheck never writes could never match.
    const checked = whole ?? (where ? { filtering: where } : undefined);
    const locate = whole ? memoryLocator('--where') : unwrapped(memoryLocator('--where'));
    const spans = await readSpansJsonl(resolve(io.cwd, file));
    if (checked) {
      validateQuery(checked, locate);
      validateOwnAttributeKeys(checked, locate, presentAttributes(spans));
    }
    const conditions: unknown[] = [];
    if (options.trace) {
      checkTraceInFile(spans, options.trace, file);
      conditions.push({ field: 'trace_id', operator: 'eq', value: options.trace });
    }
    if (filtering) conditions.push(filtering);
    const query = {
      filtering: conditions.length ? { operator: 'and', conditions } : undefined,
      windowing: withLimit(whole?.windowing, options.limit),
    };
    validateQuery(query, memoryLocator('--where'));
    io.stdout.write(`${JSON.stringify(querySpans(spans, query as never), null, 2)}\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io);
  }
}

/**
 * The query's windowing with --limit as a cap: the query's order stays, and a limit of its own
 * that is lower stays too (a cap never prints more than the query asks for).
 */
function withLimit(windowing: unknown, limit: number | undefined): unknown {
  if (limit === undefined) return windowing;
  const own = (windowing !== null && typeof windowing === 'object' ? windowing : {}) as { limit?: unknown; order?: unknown };
  const ownLimit = typeof own.limit === 'number' ? own.limit : Infinity;
  return { ...own, limit: Math.min(limit, ownLimit) };
}

const WHERE_FORMS = 'a JSON object: a filtering {operator, conditions}, a condition {field, operator, value} or a query {filtering, windowing}';

/** The --where JSON: an object, never null, a list, a scalar or an empty string (which would match every span). */
function parseWhere(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new ConfigError({ file: '--where' }, `expected ${WHERE_FORMS}, got an empty string`);
  // As strict as a query in a file: a key given twice is refused, not kept last (docs/formats.md).
  const read = readStrictJson(text);
  if ('problems' in read) {
    const [first] = read.problems;
    const at = first.line === undefined ? '' : ` (at ${first.line}:${first.column ?? 1})`;
    throw new ConfigError({ file: '--where' }, `expected ${WHERE_FORMS}; it ${first.message}${at}`);
  }
  const { value } = read;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = Array.isArray(value) ? 'a list' : JSON.stringify(value);
    throw new ConfigError(
      { file: '--where' },
      `expected ${WHERE_FORMS}, got ${got}${Array.isArray(value) ? ' (put conditions in {"conditions": [...]})' : ''}`,
    );
  }
  return value as Record<string, unknown>;
}

/** Drops the leading `filtering` segment the wrapper added, so paths point into --where itself. */
function unwrapped(locate: Locator): Locator {
  return (path, expected, atKey) => locate(path[0] === 'filtering' ? path.slice(1) : path, expected, atKey);
}
