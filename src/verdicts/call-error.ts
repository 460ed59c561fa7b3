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
