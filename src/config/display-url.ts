import { quoteCapped } from './cap-text.js';
import { scrubCredentialShapes } from './redactor.js';

/**
 * The URL as it may be printed: origin and path only, so credentials and query tokens stay out of
 * logs. Text that is not a URL with an origin is shown as typed only when it cannot hold a
 * credential or a token (no @, ? or #, short).
 */
export function displayUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // shown below, if safe
  }
  if (parsed && parsed.origin !== 'null') return `${parsed.origin}${parsed.pathname}`;
  return /^[^@?#\s]{1,80}$/.test(url) ? JSON.stringify(url).slice(1, -1) : '(invalid URL)';
}

/**
 * A URL as an error message quotes it: JSON-quoted and capped, its password and credential query
 * values `[redacted]` (docs/security.md, "Secrets"), as a load error quotes `llm.base_url`.
 */
export function quotedUrl(url: string): string {
  return quoteCapped(scrubCredentialShapes(url));
}
