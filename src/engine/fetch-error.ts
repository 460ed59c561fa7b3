/**
 * What a failed fetch says, with its reason: undici reports "fetch failed" and hides the reason
 * (ECONNREFUSED, ENOTFOUND) in `cause`; in a run with scenario mocks or a cassette the error that
 * reaches the caller wraps that one further down the `cause` chain. The chain is followed to its end, so
 * both read `fetch failed (connect ECONNREFUSED 127.0.0.1:9)` (docs/security.md).
 */
export function describeFetchError(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 8; depth++) {
    if (current instanceof Error && current.message && messages.at(-1) !== current.message) messages.push(current.message);
    current = (current as { cause?: unknown }).cause;
  }
  if (!messages.length) return String(error);
  if (messages.length === 1) return messages[0];
  // The innermost says why; the one around it what failed ("fetch failed"), not the wrapper's.
  return `${messages[messages.length - 2]} (${messages[messages.length - 1]})`;
}
