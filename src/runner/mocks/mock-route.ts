import { wildcardMatch } from '../../config/wildcard-match.js';

/**
 * Whether a mock's method (any when omitted) and URL (exact, or `*` wildcards) fit a request. Its
 * own module: the offline check of a run (offline-env.ts) uses it without loading the matchers.
 */
export function routeMatches(mock: { method?: string; url: string }, method: string, url: string): boolean {
  if (mock.method && mock.method.toUpperCase() !== method.toUpperCase()) return false;
  // A hand-written matcher, not a regex: `*-*-*` against a long URL must not backtrack.
  return mock.url.includes('*') ? wildcardMatch(mock.url, url) : mock.url === url;
}
