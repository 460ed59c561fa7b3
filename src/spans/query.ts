import { memoryLocator } from '../config/assert-format.js';
import type { ConfigError } from '../config/errors.js';
import { assertPathArgument } from '../config/path-argument.js';
import { compileFiltering, type SpanPredicate } from './query-conditions.js';
import type { QueryResult, SpanQuery } from './query-types.js';
import { validateQuery } from './query-validate.js';
import type { SpanRecord } from './span-record.js';
import { SpanStore } from './span-store.js';
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
  // `source` starts every message: a number or object would read `5 at filtering.field: ...`.
  assertPathArgument(source, 'compileQuery', 'source', 'a name to place its problems under, such as "query"');
  validateQuery(query, memoryLocator(source));
  return {
    predicate: query.filtering ? compileFiltering(query.filtering) : MATCH_ALL,
    limit: query.windowing?.limit ?? Infinity,
    order: query.windowing?.order ?? 'asc',
  };
}

/**
 * Where querySpans reads span records from: a list of them, the SpanStore installTracing()
 * returns (its ended spans), or any object holding a list of them as `spans`.
 */
export type SpanSource<S extends SpanRecord = SpanRecord> = readonly S[] | SpanStore | { readonly spans: readonly S[] };

/** The records of a span source, with where a wrong one is named. */
function recordsOf<S extends SpanRecord>(source: SpanSource<S>): { records: unknown; at: 'spans' | 'spans.spans' } {
  if (source instanceof SpanStore) return { records: source.ended(), at: 'spans' };
  if (!Array.isArray(source) && typeof source === 'object' && source !== null && 'spans' in source) return { records: source.spans, at: 'spans.spans' };
  return { records: source, at: 'spans' };
}

/**
 * Runs a query over span records (docs/query-spans.md): the spans matching `filtering`,
 * ordered by start time (`asc` by default), at most `windowing.limit` of them. `count` is the
 * number that matched before the limit. A malformed query or span list is a ConfigError.
 */
export function querySpans<S extends SpanRecord>(source: SpanSource<S>, query: SpanQuery | CompiledQuery = {}): QueryResult<S> {
  const compiled = isCompiled(query) ? query : compileQuery(query);
  const { predicate, limit, order } = compiled;
  const { records, at } = recordsOf(source);
  // Library callers pass anything: what is not a span record is named, never a TypeError mid-scan.
  if (!Array.isArray(records)) throw notSpans(records, at);
  const spans = records as readonly S[];
  const matched: S[] = [];
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    // Checked in the scan, not a pass of its own: the span is in cache here, so it costs little.
    if (!isSpanRecord(span)) throw notSpans(spans, at);
    if (predicate(span)) matched.push(span);
  }
  const count = matched.length;
  if (!isSortedByStart(matched)) matched.sort((a, b) => a.start_ms - b.start_ms);
  if (order === 'desc') matched.reverse();
  if (limit < matched.length) matched.length = limit;
  return { count, spans: matched };
}

function notSpans(spans: unknown, at: string): ConfigError {
  return spanListProblem(spans, [], memoryLocator(at))!;
}

function isCompiled(query: unknown): query is CompiledQuery {
  return typeof query === 'object' && query !== null && typeof (query as Partial<CompiledQuery>).predicate === 'function';
}

/** A store keeps spans in start order (a spans.jsonl, each run's): checking is O(n) where sorting is not. */
function isSortedByStart(spans: readonly SpanRecord[]): boolean {
  for (let i = 1; i < spans.length; i++) if (spans[i].start_ms < spans[i - 1].start_ms) return false;
  return true;
}
