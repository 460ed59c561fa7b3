import { capText, safeJson } from '../tools/result-text.js';

/** Longest compact JSON a failure result that carries no message becomes. */
export const MAX_FAILURE_JSON_CHARS = 500;
/** Longest response body quoted in an `HTTP <status>: <body>` message. */
export const MAX_HTTP_BODY_CHARS = 200;

/**
 * The message of a failed call's result, for `context:<name>.error` and the ui_chat_log entry
 * (docs/workflows.md, Flows: "error holds the message"). A string is the message; an object with a
 * non-empty string `error` or `message` field gives that string (a failed chain's result, an
 * http network failure, a command's failure); an http answer outside 2xx (`{status, body}`)
 * becomes `HTTP <status>: <body>` (body cut to 200 characters); anything else is its compact
 * JSON, cut to 500 characters with a `[truncated N characters]` marker.
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
