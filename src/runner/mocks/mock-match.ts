import { describeMismatch, matchDocument } from '../../verdicts/index.js';
import type { HttpMock } from './http-mocks.js';

/**
 * Why the request body does not satisfy the mock's `match`, or null when it does (or the mock
 * has no `match`). `match.body` is compared with the body text, `match.json` with the body
 * parsed as JSON, an object key by key (the listed keys must match; others may be there).
 */
export function bodyMismatch(mock: HttpMock, text: string): string | null {
  const match = mock.match;
  if (!match) return null;
  if (match.body !== undefined) {
    const mismatch = matchDocument(match.body, text);
    if (mismatch) return `body: ${describeMismatch(mismatch)}`;
  }
  if (match.json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `json: the request body is not JSON`;
    }
    const mismatch = matchDocument(match.json, parsed);
    if (mismatch) return `json: ${describeMismatch(mismatch)}`;
  }
  return null;
}
