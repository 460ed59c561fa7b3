import { RunError } from '../../config/errors.js';
import type { IOKey } from '../revision/types.js';
import type { FlowState } from './flow-state.js';

/** State channels an IOKey may read (`target:sub.keys`). */
export const IO_TARGETS = ['context', 'conversation_history'] as const;

/** An IOKey in its long form, parsed. */
export interface ParsedIOKey {
  /** The key as written (`context:a.b`), or `literal` for a literal. */
  text: string;
  target?: (typeof IO_TARGETS)[number] | string;
  path: string[];
  /** The argument name: `as`, else the last sub key. */
  name: string;
  /** How an agent component's prompt labels the value: `as`, else the key as written. */
  label: string;
  optional: boolean;
  hasLiteral: boolean;
  literal?: unknown;
}

/** Parses `target:sub.keys` or `{from, as, optional, literal}` (docs/workflows.md, Flows). */
export function parseIOKey(key: IOKey): ParsedIOKey {
  const long = typeof key === 'string' ? { from: key } : key;
  const hasLiteral = Object.hasOwn(long, 'literal');
  const from = long.from ?? '';
  const colon = from.indexOf(':');
  const target = colon > 0 ? from.slice(0, colon) : undefined;
  const path = colon > 0 ? from.slice(colon + 1).split('.') : [];
  return {
    text: hasLiteral && !long.from ? 'literal' : from,
    target,
    path,
    name: long.as ?? path[path.length - 1] ?? '',
    label: long.as ?? (hasLiteral && !long.from ? 'literal' : from),
    optional: long.optional ?? false,
    hasLiteral,
    literal: long.literal,
  };
}

/** Reads one IOKey from the flow state; `found` is false when a key on the path is missing. */
export function readIOKey(state: FlowState, key: ParsedIOKey): { found: boolean; value?: unknown } {
  if (key.hasLiteral) return { found: true, value: key.literal };
  let value: unknown = key.target === 'context' ? state.context : key.target === 'conversation_history' ? state.conversation_history : undefined;
  if (value === undefined) return { found: false };
  for (const segment of key.path) {
    if (Array.isArray(value) && /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < value.length) value = value[Number(segment)];
    else if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, segment))
      value = (value as Record<string, unknown>)[segment];
    else return { found: false };
  }
  return { found: true, value };
}

/**
 * Reads a component's inputs in order. A missing key is a RunError unless the key is optional,
 * in which case it is left out.
 */
export function readInputs(state: FlowState, keys: readonly IOKey[], where: string): Array<{ key: ParsedIOKey; value: unknown }> {
  const values: Array<{ key: ParsedIOKey; value: unknown }> = [];
  for (const raw of keys) {
    const key = parseIOKey(raw);
    const read = readIOKey(state, key);
    if (read.found) values.push({ key, value: read.value });
    else if (!key.optional) throw missingKey(key, where);
  }
  return values;
}

/** The error for a required key that is not in the state. */
export function missingKey(key: ParsedIOKey, where: string): RunError {
  return new RunError(
    'FLOW_MISSING_INPUT',
    `${where}: input "${key.text}" is not in the flow state; give it in the run's inputs.context (a scenario's inputs.context, test-run --inputs FILE with context: {...}), let an earlier component write it, or mark it {from: "${key.text}", optional: true}`,
  );
}
