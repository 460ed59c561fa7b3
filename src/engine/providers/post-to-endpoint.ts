import type { ModelRequest } from '../model/model.js';
import { endpointUrl, resolveEndpoint, type EndpointSpec, type HttpModelOptions } from './http-model-options.js';
import { postJsonWithRetry, type JsonReply } from './http-retry.js';

/** One provider request: where it goes under the endpoint, its body and how the key is sent. */
export interface EndpointPost {
  endpoint: EndpointSpec;
  /** Path under the resolved base URL (`/chat/completions`, `/v1/messages`). */
  path: string;
  body: Record<string, unknown>;
  signal: ModelRequest['signal'];
  /** Headers carrying the API key (called only when there is one). */
  auth(apiKey: string): Record<string, string>;
  /** Headers every request carries besides `content-type` (an API version). */
  headers?: Record<string, string>;
}

/**
 * POSTs a provider's request body to its endpoint (base URL and key resolved from the options,
 * env and defaults), with retries; the key is redacted from every error.
 */
export function postToEndpoint(post: EndpointPost, options: HttpModelOptions): Promise<JsonReply> {
  const { baseUrl, apiKey } = resolveEndpoint(options, post.endpoint);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...post.headers, ...(apiKey === undefined ? {} : post.auth(apiKey)) };
  return postJsonWithRetry(
    {
      provider: post.endpoint.provider,
      url: endpointUrl(baseUrl, post.path),
      headers,
      body: post.body,
      signal: post.signal,
      secrets: apiKey === undefined ? [] : [apiKey],
    },
    options,
  );
}

/** The `Authorization: Bearer` header of OpenAI-style APIs. */
export function bearerAuth(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}` };
}
