import { quoteCapped } from '../../config/cap-text.js';
import { RunError } from '../../config/errors.js';

/** What a scope answers for one variable name: whether it is bound, and to what. */
export interface LookupResult {
  found: boolean;
  value?: unknown;
}

/**
 * Resolves a bare variable name (the first segment of a template path). The caller decides the
 * scopes: a plan's lexical blocks, a chain's state, an http tool's `args`.
 */
export type TemplateLookup = (name: string) => LookupResult;

/** A lookup over one plain object's own keys, for the common single-scope case. */
export function lookupIn(scope: Readonly<Record<string, unknown>>): TemplateLookup {
  return (name) => (Object.hasOwn(scope, name) ? { found: true, value: scope[name] } : { found: false });
}

/**
 * Resolves a dotted template path (`a`, `a.b`, `a.0`): the first segment through `lookup`, the
 * rest by walking own keys of objects and indexes of arrays. Throws RunError TEMPLATE_UNDEFINED.
 */
export function resolveTemplatePath(path: string, lookup: TemplateLookup, where?: string): unknown {
  const [head, ...rest] = path.split('.');
  const bound = lookup(head);
  if (!bound.found) throw undefinedVariable(path, `${quoteCapped(head)} is not defined`, where);
  let value = bound.value;
  let walked = head;
  for (const key of rest) {
    const next = templateStep(value, key);
    if (!next.found) throw undefinedVariable(path, `${describe(walked, value)} has no ${quoteCapped(key)}`, where);
    value = next.value;
    walked += `.${key}`;
  }
  return value;
}

/** One step into a value; only own keys count, so `a.length` or `a.constructor` never leak in. */
export function templateStep(value: unknown, key: string): LookupResult {
  if (Array.isArray(value)) {
    if (!/^(0|[1-9]\d*)$/.test(key)) return { found: false };
    const index = Number(key);
    return index < value.length ? { found: true, value: value[index] } : { found: false };
  }
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, key)) {
    return { found: true, value: (value as Record<string, unknown>)[key] };
  }
  return { found: false };
}

function describe(path: string, value: unknown): string {
  if (Array.isArray(value)) return `${quoteCapped(path)} (an array of ${value.length})`;
  if (value === null) return `${quoteCapped(path)} (null)`;
  if (typeof value === 'object') {
    const keys = Object.keys(value as object);
    const shown = keys.slice(0, 10).join(', ') + (keys.length > 10 ? ', ...' : '');
    return `${quoteCapped(path)} (an object with keys: ${shown || 'none'})`;
  }
  return `${quoteCapped(path)} (a ${typeof value})`;
}

function undefinedVariable(path: string, why: string, where?: string): RunError {
  const at = where ? ` at ${where}` : '';
  return new RunError('TEMPLATE_UNDEFINED', `undefined variable ${quoteCapped(path)} in template "{{ ${path} }}"${at}: ${why}`);
}
