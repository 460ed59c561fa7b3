import { cutLength } from '../config/cap-text.js';
import type { ErrorToken } from './error-tokens.js';
import { findErrorToken } from './error-tokens.js';
import type { ToolCall } from './evidence-types.js';

/** Composite tools whose result embeds their steps' results (docs/workflows.md, STEP plans and Tool chains). */
const COMPOSITE_KINDS = new Set(['chain', 'plan']);

/**
 * The token that makes a call a tool error, or null: the span's `error.type` (or
 * `is_error`) when the span says it failed, else the first error token in its result.
 * Denied and pending calls never ran, so they are not errors. A chain or plan result carries
 * its steps' results, including failures it handled; its own success is its span's error
 * flag, so its result is not searched for tokens.
 */
export function callError(call: ToolCall, tokens: readonly ErrorToken[]): string | null {
  if (call.outcome === 'denied' || call.outcome === 'pending') return null;
  if (call.is_error || call.outcome === 'error') return call.error_type ?? 'is_error';
  if (call.kind !== null && COMPOSITE_KINDS.has(call.kind)) return null;
  return findErrorToken(call.result_text, tokens);
}

/**
 * The call returned a result without error: outcome ok and no error token in its result. The
 * digest's `returned` and `tool_returned` count by this (docs/verdicts.md).
 */
export function returnedWithoutError(call: ToolCall, tokens: readonly ErrorToken[]): boolean {
  return call.outcome === 'ok' && callError(call, tokens) === null;
}

/** Longest error detail quoted in a reason. */
const MAX_DETAIL_CHARS = 300;

/**
 * Why a call failed, with what the tool said when the span carries the failure:
 * `invalid_arguments (Invalid arguments for label: labels[0]: expected one of ...)`,
 * `network (fetch_page: GET https://x.test/ failed: fetch failed (ECONNREFUSED))`.
 * An error token found in the result is its own explanation. Null when the call did not fail.
 */
export function describeCallError(call: ToolCall, tokens: readonly ErrorToken[]): string | null {
  const why = callError(call, tokens);
  if (!why || !(call.is_error || call.outcome === 'error')) return why;
  const detail = errorDetail(call.result) ?? call.error_message;
  if (!detail) return why;
  return `${why} (${detail.length > MAX_DETAIL_CHARS ? `${detail.slice(0, cutLength(detail, MAX_DETAIL_CHARS))}...` : detail})`;
}

/**
 * The message in a failed call's result: the text itself, or its `error` / `message` field; an
 * http tool's answer outside 2xx (`{status, body}`) as `HTTP 500: <what its body says>`.
 */
function errorDetail(result: unknown): string | null {
  if (typeof result === 'string') return result.trim() || null;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return null;
  const record = result as Record<string, unknown>;
  for (const key of ['error', 'message']) if (typeof record[key] === 'string' && record[key] !== '') return record[key] as string;
  if (typeof record.status === 'number' && 'body' in record) {
    const said = errorDetail(record.body);
    return said ? `HTTP ${record.status}: ${said}` : `HTTP ${record.status}`;
  }
  return null;
}
