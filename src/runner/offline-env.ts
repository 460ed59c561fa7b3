import { wildcardMatch } from '../config/wildcard-match.js';
import { credentialEnvNames, providerBaseUrl } from '../engine/providers/registry.js';
import type { LlmSpec } from '../engine/revision/types.js';
import type { TestRunRequest } from './test-run-request.js';

/** Stands in for a missing API key when no request reaches a real provider. */
export const REPLAY_PLACEHOLDER_KEY = 'agentcheck-cassette-replay';

/**
 * A run whose model requests never leave the process (a cassette replay, or scenario mocks
 * that answer the provider's endpoint) needs no real key, but the providers refuse to build a
 * request without one; so CI can run such suites without secrets, a missing key is filled with
 * a placeholder that is never sent anywhere.
 */
export function offlineEnv(request: TestRunRequest, providers: readonly string[]): TestRunRequest['env'] {
  const mocked = (request.mocks?.http ?? []).some((mock) => providers.some((origin) => mayAnswerOrigin(mock.url, origin)));
  if (request.cassette?.mode !== 'replay' && !mocked) return request.env;
  const env = request.env ?? process.env;
  const filled: Record<string, string | undefined> = { ...env };
  for (const name of credentialEnvNames()) filled[name] = env[name] || REPLAY_PLACEHOLDER_KEY;
  return filled;
}

/**
 * Whether a mock's `url` can match a request to `origin`: the same origin, or a wildcard pattern
 * whose origin part matches it (a pattern that starts with `*` matches any origin).
 */
function mayAnswerOrigin(url: string, origin: string): boolean {
  if (!url.includes('*')) return originOf(url) === origin;
  if (url.startsWith('*')) return true;
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return wildcardMatch(pathStart === -1 ? url : url.slice(0, pathStart), origin);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** A real model endpoint's origin passes through scenario mocks (the provider's entry knows its URL). */
export function providerOrigins(llm: LlmSpec | undefined, env: TestRunRequest['env'] = process.env): string[] {
  if (!llm) return [];
  // An unknown provider is a ConfigError here, never another provider's URL.
  const baseUrl = providerBaseUrl(llm, env);
  if (baseUrl === null) return [];
  try {
    return [new URL(baseUrl).origin];
  } catch {
    return [];
  }
}
