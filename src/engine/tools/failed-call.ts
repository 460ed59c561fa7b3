import { hasErrorText } from './error-field.js';
import { capText, safeJson } from './result-text.js';
import type { CallResult } from './tool.js';

/** Longest compact JSON a failure result that carries no message becomes. */
export const MAX_FAILURE_JSON_CHARS = 500;
/** Longest response body quoted in an `HTTP <status>: <body>` message. */
export const MAX_HTTP_BODY_CHARS = 200;

/**
 * Whether a result says it failed (docs/workflows.md, Tool chains, Failure): an object with
 * `status: "error"`, `is_error: true`, `ok: false` or a non-empty `error` string. The last two
 * are what the verdict's default error tokens count as failed (a Slack-style
 * `{ok: false, error: not_in_channel}`), so a fallback runs where the verdict would fail.
 */
export function isErrorResult(result: unknown): boolean {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return false;
  const fields = result as Record<string, unknown>;
  return fields.status === 'error' || fields.is_error === true || fields.ok === false || hasErrorText(fields);
}

/**
 * Whether a call failed as a chain step, a flow step and a plan step all count it: the tool threw
 * or returned an error outcome (including refusals and a gate nobody answered), or its result
 * is error-shaped (isErrorResult). The one rule of the three, so they never disagree.
 */
export function isFailedCall(call: CallResult): boolean {
  return call.isError || call.outcome !== 'ok' || isErrorResult(call.result);
}

/**
 * The message of a failed call's result (docs/workflows.md: a flow step's `context:<name>.error`,
 * a chain step's `failure`, a plan's `tool "..." failed:`). A string is the message; an object
 * with a non-empty string `error` or `message` field gives that string (a failed chain's result,
 * an http network failure, a command's failure), so a nested chain contributes its sentence,
 * not its result as escaped JSON; an http answer outside 2xx (`{status, body}`) becomes
 * `HTTP <status>: <body>` (body cut to 200 characters); anything else is its compact JSON, cut
 * to 500 characters with a `[truncated N characters]` marker.
 */
export function failureMessage(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result !== null && typeof result === 'object' && !Array.isArray(result)) {
    const record = result as Record<string, unknown>;
    for (const field of ['error', 'message']) {
      const text = record[field];
      if (typeof text === 'string' && text.trim() !== '') return text;
    }
    if (typeof record.status === 'number' && Object.hasOwn(record, 'body')) {
      const body = typeof record.body === 'string' ? record.body : safeJson(record.body);
      return body.trim() === '' ? `HTTP ${record.status}` : `HTTP ${record.status}: ${capText(body, MAX_HTTP_BODY_CHARS)}`;
    }
  }
  return capText(safeJson(result), MAX_FAILURE_JSON_CHARS);
}
