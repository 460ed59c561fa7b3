import { memoryLocator } from '../config/assert-format.js';
import type { ConfigError } from '../config/errors.js';
import { compileFiltering, type SpanPredicate } from './query-conditions.js';
import type { QueryResult, SpanQuery } from './query-types.js';
import { validateQuery } from './query-validate.js';
import type { SpanRecord } from './span-record.js';
import { isSpanRecord, spanListProblem } from './span-record-check.js';

export type { QueryCondition, QueryFiltering, QueryResult, QueryWindowing, SpanQuery } from './query-types.js';
export { validateQuery } from './query-validate.js';

const MATCH_ALL: SpanPredicate = () => true;

/** A query validated and compiled once, to run against many span sets (checks, CLI). */
export interface CompiledQuery {
  readonly predicate: SpanPredicate;
  readonly limit: number;
  readonly order: 'asc' | 'desc';
}

/** Validates and compiles a query; invalid queries throw a ConfigError located under `source`. */
export function compileQuery(query: SpanQuery, source = 'query'): CompiledQuery {
  validateQuery(query, memoryLocator(source));
  return {
    predicate: query.filtering ? compileFiltering(query.filtering) : MATCH_ALL,
    limit: query.windowing?.limit ?? Infinity,
    order: query.windowing?.order ?? 'asc',
  };
}

/**
 * Runs a query over span records (docs/query-spans.md): the spans matching `filtering`,
 * ordered by start time (`asc` by default), at most `windowing.limit` of them. `count` is the
 * number that matched before the limit. A malformed query or span list is a ConfigError.
 */
export function querySpans<S extends SpanRecord>(spans: readonly S[], query: SpanQuery | CompiledQuery = {}): QueryResult<S> {
  const compiled = isCompiled(query) ? query : compileQuery(query);
  const { predicate, limit, order } = compiled;
  // Library callers pass anything: what is not a span record is named, never a TypeError mid-scan.
  if (!Array.isArray(spans)) throw notSpans(spans);
  const matched: S[] = [];
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    // Checked in the scan, not a pass of its own: the span is in cache here, so it costs little.
    if (!isSpanRecord(span)) throw notSpans(spans);
    if (predicate(span)) matched.push(span);
  }
  const count = matched.length;
  if (!isSortedByStart(matched)) matched.sort((a, b) => a.start_ms - b.start_ms);
  if (order === 'desc') matched.reverse();
  if (limit < matched.length) matched.length = limit;
  return { count, spans: matched };
}

function notSpans(spans: unknown): ConfigError {
  return spanListProblem(spans, [], memoryLocator('spans'))!;
}

function isCompiled(query: unknown): query is CompiledQuery {
  return typeof query === 'object' && query !== null && typeof (query as Partial<CompiledQuery>).predicate === 'function';
}

/** Stores and exports keep spans in start order; checking is O(n) where sorting is not. */
function isSortedByStart(spans: readonly SpanRecord[]): boolean {
  for (let i = 1; i < spans.length; i++) if (spans[i].start_ms < spans[i - 1].start_ms) return false;
  return true;
}
