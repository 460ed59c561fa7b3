import { ModelError } from '../../config/errors.js';
import type { LlmSpec } from '../revision/types.js';
import type { CreateModelOptions } from './provider-entry.js';

/** Options shared by the HTTP model providers (OpenAI-compatible, Anthropic). */
export interface HttpModelOptions {
  /** The requested model id, sent as `model`. */
  model: string;
  /** API base URL; defaults to the provider's env var, then its public endpoint. */
  baseUrl?: string;
  /** API key; defaults to the provider's env var. Never appears in an error message. */
  apiKey?: string;
  /**
   * The model was made from a build, scenario, judge or config `llm` (httpModelOptions), where
   * no `apiKey` can be written: a missing key's message then names only the environment variable.
   */
  keyFromEnvOnly?: boolean;
  /** Environment to read base URL and key from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Fetch implementation (default: the engine's fetch: a run's mocks and cassette, else `globalThis.fetch` looked up at call time). */
  fetch?: typeof fetch;
  /** Retries after the first attempt (default 4, so at most 5 attempts). */
  maxRetries?: number;
  /** Base of the exponential backoff in ms (default 500). */
  retryBaseMs?: number;
  /** Upper bound of one wait between attempts, also for `Retry-After` (default 30000). */
  maxRetryDelayMs?: number;
  /** Timeout of one attempt (request and body) in ms (default 120000). */
  timeoutMs?: number;
  /** Waits between attempts; injected by tests so nothing really waits. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/** The HTTP providers' options from the build's llm: endpoint, timeout and retries. */
export function httpModelOptions(llm: LlmSpec, options: CreateModelOptions): HttpModelOptions {
  return { model: llm.model, baseUrl: llm.base_url, env: options.env, timeoutMs: llm.timeout_ms, maxRetries: llm.max_retries, keyFromEnvOnly: true };
}

/** Where a provider reads its endpoint and key from. */
export interface EndpointSpec {
  provider: string;
  baseUrlEnv: string;
  defaultBaseUrl: string;
  apiKeyEnv: string;
  /** The path of its requests under the base URL (`/chat/completions`, `/v1/messages`). */
  path: string;
}

/** The endpoint a request goes to. `apiKey` is undefined only for a local server. */
export interface ResolvedEndpoint {
  baseUrl: string;
  apiKey?: string;
}

/** Resolves base URL and API key from options, then env; a missing key is an error unless the server is local. */
export function resolveEndpoint(options: HttpModelOptions, spec: EndpointSpec): ResolvedEndpoint {
  const env = options.env ?? process.env;
  // Empty strings count as unset: an exported-but-empty variable is a common shell accident.
  const baseUrl = (nonEmpty(options.baseUrl) ?? nonEmpty(env[spec.baseUrlEnv]) ?? spec.defaultBaseUrl).replace(/\/+$/, '');
  const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env[spec.apiKeyEnv]);
  if (apiKey === undefined && !isLocal(baseUrl)) {
    // Only a library caller constructing the model has an apiKey option to pass.
    const orOption = options.keyFromEnvOnly ? '' : ' (or pass apiKey)';
    throw new ModelError(
      spec.provider,
      `${spec.provider}: no API key: set ${spec.apiKeyEnv} in the environment${orOption} to call ${baseUrl}`,
      'MODEL_NO_API_KEY',
    );
  }
  return { baseUrl, apiKey };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Local OpenAI-compatible servers (Ollama, llama.cpp, vLLM) usually need no key. */
function isLocal(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || host.endsWith('.localhost');
}

/**
 * The URL of a request under `baseUrl`: the path goes before the base URL's query, so an
 * Azure-style `.../openai/deployments/x?api-version=2024-06-01` keeps its query
 * (`.../x/chat/completions?api-version=...`) instead of having the path appended to it.
 */
export function endpointUrl(baseUrl: string, path: string): string {
  const cut = baseUrl.search(/[?#]/);
  const [base, query] = cut < 0 ? [baseUrl, ''] : [baseUrl.slice(0, cut), baseUrl.slice(cut)];
  return `${base.replace(/\/+$/, '')}${path}${query}`;
}
