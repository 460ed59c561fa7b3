import { setOwn } from '../../../config/own-key.js';
import { isSecretHeaderName, scrubSecretValues } from '../../../config/redact.js';
import { REDACTED, scrubCredentialShapes } from '../../../config/redactor.js';
import { ATTR } from '../../../spans/conventions.js';
import { capText } from '../result-text.js';

/** Request bodies longer than this are cut on the span (as tool results are). */
const MAX_SPAN_BODY_CHARS = 100_000;

/** What an http tool sent, after templating. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The execute_tool span attributes recording the request an http tool actually sent
 * (docs/spans.md), so checks can assert it. Secret-named headers are `[redacted]` whatever their
 * value; the URL's credentials and every secret value found in headers or URL are cut out of
 * the URL and the body.
 */
export function httpRequestAttributes(request: SentRequest, secrets: readonly string[], status?: number): Record<string, string | number> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) setOwn(headers, name, isSecretHeaderName(name) ? REDACTED : scrubSecretValues(value, secrets));
  const attributes: Record<string, string | number> = {
    [ATTR.httpRequestMethod]: request.method,
    [ATTR.urlFull]: scrubCredentialShapes(scrubSecretValues(request.url, secrets)),
    [ATTR.httpRequestHeaders]: JSON.stringify(headers),
  };
  if (request.body !== undefined) {
    const body = scrubSecretValues(request.body, secrets);
    attributes[ATTR.httpRequestBody] = capText(body, MAX_SPAN_BODY_CHARS);
  }
  if (status !== undefined) attributes[ATTR.httpResponseStatusCode] = status;
  return attributes;
}
