import { ConfigError } from '../../config/errors.js';
import type { LlmSpec } from '../revision/types.js';
import { endpointUrl } from './http-model-options.js';
import { anthropicProvider } from './anthropic.js';
import { openaiProvider } from './openai.js';
import { openaiResponsesProvider } from './openai-responses/openai-responses.js';
import type { ProviderEntry } from './provider-entry.js';
import { scriptedProvider } from './scripted.js';

/**
 * Provider name -> entry (docs/formats.md, Agent build). A map only: each provider's knowledge
 * (env vars, default URL, model, tool shape) lives in its own file. Adding one is one line here.
 */
export const PROVIDERS = {
  scripted: scriptedProvider,
  openai: openaiProvider,
  anthropic: anthropicProvider,
  'openai-responses': openaiResponsesProvider,
} as const satisfies Record<string, ProviderEntry>;

/** A provider name the registry knows. */
export type RegisteredProvider = keyof typeof PROVIDERS;

/** The provider names, in registry order (the build schema's `provider` enum). */
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as RegisteredProvider[];

/** The entry of `name`; an unknown name is a ConfigError naming the known ones, never a fallback. */
export function providerEntry(name: string, where = 'agent.llm.provider'): ProviderEntry {
  if (Object.hasOwn(PROVIDERS, name)) return PROVIDERS[name as RegisteredProvider];
  throw new ConfigError({ file: where }, `unknown provider "${name}"; expected one of: ${PROVIDER_NAMES.join(', ')}`, 'PROVIDER_UNKNOWN');
}

/** The `gen_ai.provider.name` of a provider's spans (docs/spans.md): the vendor, or the registry name. */
export function genAiProviderName(name: string): string {
  return Object.hasOwn(PROVIDERS, name) ? ((PROVIDERS[name as RegisteredProvider] as ProviderEntry).genAiName ?? name) : name;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The base URL a run's model requests go to (build, then the provider's env var, then its default); null in-process. */
export function providerBaseUrl(llm: Pick<LlmSpec, 'provider' | 'base_url'>, env: Env): string | null {
  const endpoint = providerEntry(llm.provider).endpoint;
  if (!endpoint) return null;
  return nonEmpty(llm.base_url) ?? nonEmpty(env[endpoint.baseUrlEnv]) ?? endpoint.defaultBaseUrl;
}

/** The URL the provider's requests are POSTed to (base URL and path, as the provider sends them), or null for in-process models. */
export function providerRequestUrl(llm: Pick<LlmSpec, 'provider' | 'base_url'>, env: Env): string | null {
  const baseUrl = providerBaseUrl(llm, env);
  const endpoint = providerEntry(llm.provider).endpoint;
  return baseUrl === null || !endpoint ? null : endpointUrl(baseUrl, endpoint.path);
}

/** The provider's API key from `env`, or undefined (also for providers without a key). */
export function providerCredential(name: string, env: Env): string | undefined {
  const endpoint = providerEntry(name).endpoint;
  return endpoint ? nonEmpty(env[endpoint.apiKeyEnv]) : undefined;
}

/** The env var names that hold the registered providers' API keys, each once (two APIs of one vendor share a key). */
export function credentialEnvNames(): string[] {
  return [...new Set(Object.values(PROVIDERS).flatMap((entry: ProviderEntry) => (entry.endpoint ? [entry.endpoint.apiKeyEnv] : [])))];
}

// Empty strings count as unset: an exported-but-empty variable is a common shell accident.
function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
