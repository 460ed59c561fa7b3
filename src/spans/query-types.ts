/** The query_spans language (docs/query-spans.md): filters over span records plus a window. */

/** Span fields a condition can test. */
export const QUERY_FIELDS = ['trace_id', 'span_id', 'parent_id', 'name', 'kind', 'status', 'attributes', 'duration_ms'] as const;
/** A field name. */
export type QueryField = (typeof QUERY_FIELDS)[number];

/** The values a span's `status` and `kind` can hold (SpanRecord); conditions on them are checked against these. */
export const FIELD_VALUES = {
  status: ['unset', 'ok', 'error'],
  kind: ['internal', 'server', 'client', 'producer', 'consumer'],
} as const satisfies Partial<Record<QueryField, readonly string[]>>;

/** Fields the ordering operators (gt, gte, lt, lte) apply to: numbers, and attributes (numbers or text). */
export const ORDERED_FIELDS = ['duration_ms', 'attributes'] as const satisfies readonly QueryField[];

/** Comparison operators. `exists` / `not_exists` take no value. */
export const QUERY_OPERATORS = [
  'is',
  'is_not',
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'startswith',
  'endswith',
  'matches',
  'in',
  'not_in',
  'exists',
  'not_exists',
] as const;
/** A comparison operator name. */
export type QueryOperator = (typeof QUERY_OPERATORS)[number];

/** Operators that combine conditions. */
export const LOGICAL_OPERATORS = ['and', 'or', 'not'] as const;
/** A logical operator name. */
export type LogicalOperator = (typeof LOGICAL_OPERATORS)[number];

/** One test on one field; `key` names the attribute when `field` is `attributes`. */
export interface QueryCondition {
  field: QueryField;
  key?: string;
  operator: QueryOperator;
  value?: unknown;
}

/** `and`: all match; `or`: any matches; `not`: none matches. */
export interface QueryFiltering {
  /** Default `and`. */
  operator?: LogicalOperator;
  conditions: Array<QueryCondition | QueryFiltering>;
}

/** Which matched spans to return: ordered by start time, at most `limit`. */
export interface QueryWindowing {
  limit?: number;
  order?: 'asc' | 'desc';
}

/** A whole query; `filtering` may also be a single condition. */
export interface SpanQuery {
  filtering?: QueryFiltering | QueryCondition;
  windowing?: QueryWindowing;
}

/** `count` is the number of matching spans before the limit. */
export interface QueryResult<S> {
  count: number;
  spans: S[];
}
