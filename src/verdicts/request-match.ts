import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../config/errors.js';
import { isMatcher } from './args/json-value.js';
import type { Locator } from '../config/assert-format.js';
import type { PathSegments } from '../config/source.js';
import { describeMismatch, matchDocument } from './args/match-document.js';
import { matchValue } from './args/matchers.js';
import { validateExpectedValue } from './args/validate-expected.js';
import type { ToolCall } from './evidence-types.js';
import { REDACTED } from '../config/redactor.js';

/** What a check expects of the request an http tool sent (`tool_called.request`, docs/verdicts.md). */
export interface ExpectedRequest {
  method?: string;
  /** The URL as sent (credentials `[redacted]`): a string, or a matcher such as `{$regex: ...}`. */
  url?: unknown;
  /** Header name (any case) -> expected value; headers not listed may be there. */
  headers?: Record<string, unknown>;
  /** Compared with the body parsed as JSON: an object's listed keys must match. */
  json?: unknown;
  /** Compared with the body text. */
  body?: unknown;
}

/** Schema of `request` in a check's params. */
export const REQUEST_PARAM = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { method: { type: 'string', minLength: 1 }, url: {}, headers: { type: 'object' }, json: {}, body: {} },
} as const;

/** The methods an http tool or a mock can use. */
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Validates the matchers of an expected request (the schema is checked already). */
export function validateExpectedRequest(request: ExpectedRequest, at: PathSegments, locate: Locator): void {
  // Each part on its own: one pass reports a problem in each (docs/cli.md, validate).
  const problems: ConfigError[] = [];
  // A method no http tool sends could never match, so the check could only fail.
  if (request.method !== undefined && !HTTP_METHODS.includes(request.method.toUpperCase())) {
    problems.push(locate([...at, 'method'], `expected an HTTP method (${HTTP_METHODS.join(', ')}), got ${JSON.stringify(request.method)}`));
  }
  // The body is text: an object or a list there could never equal it (the body as JSON is `json`).
  if (request.body !== null && typeof request.body === 'object' && !isMatcher(request.body)) {
    problems.push(
      locate(
        [...at, 'body'],
        `body is compared with the body text, so ${Array.isArray(request.body) ? 'a list' : 'an object'} could never match it; use json: to compare the body as JSON, or give the text`,
      ),
    );
  }
  for (const key of ['url', 'json', 'body'] as const) {
    const value = request[key];
    if (value !== undefined) collectConfigErrors(problems, () => validateExpectedValue(value, [...at, key], locate));
  }
  for (const [name, value] of Object.entries(request.headers ?? {}))
    collectConfigErrors(problems, () => validateExpectedValue(value, [...at, 'headers', name], locate));
  throwConfigErrors(problems);
}

/** Why the call's recorded request is not the expected one, or null when it is. */
export function requestMismatch(expected: ExpectedRequest, call: ToolCall): string | null {
  const sent = call.request;
  if (!sent) return 'recorded no HTTP request (only http tools do)';
  if (expected.method !== undefined && expected.method.toUpperCase() !== sent.method.toUpperCase()) {
    return `request method ${sent.method}, expected ${expected.method.toUpperCase()}`;
  }
  if (expected.url !== undefined) {
    const mismatch = matchValue(expected.url, sent.url, 'url');
    if (mismatch) return `request ${describeMismatch(mismatch)}${redactedHint(sent.url)}`;
  }
  const headers = new Map(Object.entries(sent.headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    const key = name.toLowerCase();
    const mismatch = matchValue(value, headers.get(key), `headers.${key}`, headers.has(key));
    if (mismatch) return `request ${describeMismatch(mismatch)}${redactedHint(headers.get(key), key)}`;
  }
  if (expected.body !== undefined) {
    const mismatch = matchValue(expected.body, sent.body, 'body', sent.body !== undefined);
    if (mismatch) return `request ${describeMismatch(mismatch)}${redactedHint(sent.body)}`;
  }
  if (expected.json !== undefined) {
    if (sent.body === undefined) return 'request had no body (expected JSON)';
    let parsed: unknown;
    try {
      parsed = JSON.parse(sent.body);
    } catch {
      return 'request body is not JSON';
    }
    const mismatch = matchDocument(expected.json, parsed);
    // The differing value is one of the body's: said when it is where a secret was cut out.
    if (mismatch) return `request json ${describeMismatch(mismatch)}${mismatch.message.includes(REDACTED) ? redactedHint(sent.body) : ''}`;
  }
  return null;
}

/**
 * Said after a request difference where the request holds [redacted]: the span kept the request
 * scrubbed, so an expectation naming the secret (its value, or text around it) can never match,
 * and once the reason is scrubbed too both sides may read "[redacted]" (docs/verdicts.md).
 * `header`: the header's name, for the example.
 */
function redactedHint(sent: string | undefined, header?: string): string {
  if (sent === undefined || !sent.includes(REDACTED)) return '';
  const example = sent === REDACTED && header ? ` (${header}: "[redacted]")` : '';
  const how = header
    ? `("a secret one reads [redacted]", docs/verdicts.md): write "[redacted]" where the secret goes${example}, or {$any: true} for a header that need only be there`
    : `(docs/verdicts.md): write "[redacted]" where the secret goes`;
  return `; the run's secrets are compared as [redacted], never as their values ${how}`;
}
