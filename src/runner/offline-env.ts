import { credentialEnvNames, providerBaseUrl, providerRequestUrl } from '../engine/providers/registry.js';
import type { LlmSpec } from '../engine/revision/types.js';
import { routeMatches } from './mocks/mock-route.js';
import type { TestRunRequest } from './test-run-request.js';

/** Stands in for a missing API key when no request reaches a real provider. */
export const REPLAY_PLACEHOLDER_KEY = 'agentcheck-cassette-replay';

/**
 * A run whose model requests never leave the process (a cassette replay, or scenario mocks that
 * answer the provider's endpoint, `endpoints`: the URLs its requests are POSTed to) needs no real
 * key, but the providers refuse to build a request without one; so CI can run such suites without
 * secrets, a missing key is filled with a placeholder, which the mocks never let out (http-mocks.ts).
 */
export function offlineEnv(request: TestRunRequest, endpoints: readonly string[]): TestRunRequest['env'] {
  const mocked = (request.mocks?.http ?? []).some((mock) => endpoints.some((url) => routeMatches(mock, 'POST', url)));
  if (request.cassette?.mode !== 'replay' && !mocked) return request.env;
  const env = request.env ?? process.env;
  const filled: Record<string, string | undefined> = { ...env };
  for (const name of credentialEnvNames()) filled[name] = env[name] || REPLAY_PLACEHOLDER_KEY;
  return filled;
}

/** The URL a provider's requests go to, as fetch sends it (none for in-process models). */
export function providerEndpoints(llm: LlmSpec | undefined, env: TestRunRequest['env'] = process.env): string[] {
  if (!llm) return [];
  const url = providerRequestUrl(llm, env);
  return url !== null && URL.canParse(url) ? [new URL(url).href] : [];
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
