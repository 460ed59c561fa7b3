import { compileSafeRegex, testCapped } from './query-regex.js';
import type { QueryCondition, QueryField, QueryFiltering } from './query-types.js';
import type { SpanRecord } from './span-record.js';

/** A compiled filter: called once per span, allocates nothing. */
export type SpanPredicate = (span: SpanRecord) => boolean;

type Getter = (span: SpanRecord) => unknown;

/** Compiles a validated filtering tree (or single condition) into one predicate. */
export function compileFiltering(filtering: QueryFiltering | QueryCondition): SpanPredicate {
  if ('field' in filtering) return compileCondition(filtering);
  const parts = filtering.conditions.map((condition) => compileFiltering(condition));
  const count = parts.length;
  switch (filtering.operator ?? 'and') {
    case 'and':
      if (count === 1) return parts[0];
      if (count === 2) return (span) => parts[0](span) && parts[1](span);
      return (span) => {
        for (let i = 0; i < count; i++) if (!parts[i](span)) return false;
        return true;
      };
    case 'or':
      if (count === 1) return parts[0];
      return (span) => {
        for (let i = 0; i < count; i++) if (parts[i](span)) return true;
        return false;
      };
    case 'not':
      return (span) => {
        for (let i = 0; i < count; i++) if (parts[i](span)) return false;
        return true;
      };
  }
}

/** Compiles one condition; the getter and the comparison are chosen once, here. */
export function compileCondition(condition: QueryCondition): SpanPredicate {
  const get = getter(condition.field, condition.key);
  const value = condition.value;
  switch (condition.operator) {
    case 'is':
      if (!Array.isArray(value)) return (span) => get(span) === value;
      return (span) => same(get(span), value);
    case 'is_not':
      return (span) => !same(get(span), value);
    case 'eq':
      if (typeof value === 'string' && !isNumeric(value)) return (span) => get(span) === value;
      return (span) => looseEqual(get(span), value);
    case 'neq':
      return (span) => !looseEqual(get(span), value);
    case 'gt': {
      const order = orderAgainst(value as number | string);
      return (span) => order(get(span)) > 0;
    }
    case 'gte': {
      const order = orderAgainst(value as number | string);
      return (span) => order(get(span)) >= 0;
    }
    case 'lt': {
      const order = orderAgainst(value as number | string);
      return (span) => order(get(span)) < 0;
    }
    case 'lte': {
      const order = orderAgainst(value as number | string);
      return (span) => order(get(span)) <= 0;
    }
    case 'contains':
      return (span) => contains(get(span), value);
    case 'startswith': {
      const prefix = String(value);
      return (span) => {
        const actual = get(span);
        return isScalar(actual) && String(actual).startsWith(prefix);
      };
    }
    case 'endswith': {
      const suffix = String(value);
      return (span) => {
        const actual = get(span);
        return isScalar(actual) && String(actual).endsWith(suffix);
      };
    }
    case 'matches': {
      const regex = compileSafeRegex(String(value));
      return (span) => matches(get(span), regex);
    }
    case 'in': {
      const options = value as unknown[];
      return (span) => inList(get(span), options);
    }
    case 'not_in': {
      const options = value as unknown[];
      return (span) => !inList(get(span), options);
    }
    case 'exists':
      return (span) => {
        const actual = get(span);
        return actual !== undefined && actual !== null;
      };
    case 'not_exists':
      return (span) => {
        const actual = get(span);
        return actual === undefined || actual === null;
      };
  }
}

function getter(field: QueryField, key: string | undefined): Getter {
  switch (field) {
    case 'trace_id':
      return (span) => span.trace_id;
    case 'span_id':
      return (span) => span.span_id;
    case 'parent_id':
      return (span) => span.parent_id;
    case 'name':
      return (span) => span.name;
    case 'kind':
      return (span) => span.kind;
    case 'status':
      return (span) => span.status;
    case 'duration_ms':
      return (span) => span.duration_ms;
    case 'attributes': {
      const name = key as string;
      // `constructor` or `toString` would be read from Object.prototype: present on every span.
      if (name in Object.prototype) return (span) => (Object.hasOwn(span.attributes, name) ? span.attributes[name] : undefined);
      return (span) => span.attributes[name];
    }
  }
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Whether `eq`, `in` and the ordering operators read `text` as a number (`"3"` eq `3`). */
export function isNumeric(text: string): boolean {
  return text.trim() !== '' && Number.isFinite(Number(text));
}

/** Strict equality; arrays element by element. */
function same(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.length === expected.length && actual.every((item, i) => item === expected[i]);
  }
  return actual === expected;
}

/** Equality that lets a number equal its numeric string ("3" eq 3): attributes come as either. */
function looseEqual(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (typeof actual === 'number' && typeof expected === 'string') return isNumeric(expected) && actual === Number(expected);
  if (typeof actual === 'string' && typeof expected === 'number') return isNumeric(actual) && Number(actual) === expected;
  return same(actual, expected);
}

/**
 * How a field value orders against `expected` (validated: a number or a string). A number or
 * numeric string (as `eq` decides) orders numbers and numeric strings numerically: attributes
 * come as either, and `"3"` means what `3` does. Other text orders strings as strings. Anything
 * else is NaN (no match): a number has no order against other text.
 */
function orderAgainst(expected: number | string): (actual: unknown) => number {
  if (typeof expected === 'number' || isNumeric(expected)) {
    const bound = Number(expected);
    return (actual) => (typeof actual === 'number' ? actual - bound : typeof actual === 'string' && isNumeric(actual) ? Number(actual) - bound : NaN);
  }
  return (actual) => (typeof actual !== 'string' ? NaN : actual < expected ? -1 : actual > expected ? 1 : 0);
}

function contains(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string') return actual.includes(String(expected));
  if (Array.isArray(actual)) {
    for (const item of actual) if (looseEqual(item, expected)) return true;
  }
  return false;
}

function matches(actual: unknown, regex: RegExp): boolean {
  if (isScalar(actual)) return testCapped(regex, String(actual));
  if (Array.isArray(actual)) {
    for (const item of actual) if (isScalar(item) && testCapped(regex, String(item))) return true;
  }
  return false;
}

function inList(actual: unknown, options: unknown[]): boolean {
  for (const option of options) if (looseEqual(actual, option)) return true;
  return false;
}
