import { engineFetch } from '../engine-fetch.js';
import { describeFetchError } from '../fetch-error.js';
import { ModelError } from '../../config/errors.js';
import { canPostDirectly, isRedirect, postDirectly } from './direct-post.js';
import type { HttpModelOptions } from './http-model-options.js';

/** One JSON POST to a model API. */
export interface JsonPost {
  /** Provider name for errors (`openai`, `anthropic`). */
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal;
  /** Strings (API keys) replaced by `[redacted]` in every error message. */
  secrets: readonly string[];
}

/** A successful (2xx) reply whose body parsed as JSON. */
export interface JsonReply {
  status: number;
  json: unknown;
  /** A short, redacted excerpt of the body, for errors about its shape. */
  excerpt: string;
  /** A MODEL_BAD_RESPONSE error for a body of the wrong shape: `reason`, then `detail` (default: the excerpt). */
  malformed(reason: string, detail?: string): ModelError;
}

/** What one attempt came to. */
type Attempt = { kind: 'response'; status: number; headers: Pick<Headers, 'get'>; text: string } | { kind: 'network'; error: unknown } | { kind: 'timeout' };

const EXCERPT_CHARS = 200;

/**
 * POSTs JSON with retries: 429, 5xx, network failures and per-attempt timeouts are retried
 * with full-jitter exponential backoff (honouring `Retry-After` / `retry-after-ms`); other
 * non-2xx replies are rejected at once. Every failure is a ModelError with a stable code.
 */
export async function postJsonWithRetry(post: JsonPost, options: HttpModelOptions): Promise<JsonReply> {
  const maxRetries = Math.max(0, options.maxRetries ?? 4);
  const sleep = options.sleep ?? abortableSleep;
  const redact = redactor(post.secrets);
  const fail = (message: string, code: string, extra: { status?: number; cause?: unknown } = {}) =>
    new ModelError(post.provider, redact(`${post.provider}: ${message}`), code, extra);
  const aborted = () => fail(`request to ${post.url} was aborted`, 'MODEL_ABORTED', { cause: post.signal?.reason });

  for (let attempt = 0; ; attempt++) {
    if (post.signal?.aborted) throw aborted();
    const outcome = await attemptOnce(post, options);
    if (post.signal?.aborted) throw aborted();

    if (outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300) {
      return parseReply(outcome.status, outcome.text, redact, fail);
    }
    if (outcome.kind === 'response' && !isRetryableStatus(outcome.status)) {
      const reason = errorMessageOf(outcome.text, redact);
      throw fail(`request to ${post.url} rejected with HTTP ${outcome.status}: ${reason}`, 'MODEL_REQUEST_REJECTED', { status: outcome.status });
    }
    if (attempt >= maxRetries) throw exhausted(outcome, attempt + 1, post.url, fail, redact);

    const hinted = outcome.kind === 'response' ? retryAfterMs(outcome.headers) : undefined;
    try {
      await sleep(backoffMs(attempt, hinted, options), post.signal);
    } catch (error) {
      if (post.signal?.aborted) throw aborted();
      throw error;
    }
  }
}

/** Runs one fetch and reads its body, under a per-attempt timeout linked to the caller's signal. */
async function attemptOnce(post: JsonPost, options: HttpModelOptions): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? 120_000);
  const onAbort = () => controller.abort(post.signal?.reason);
  post.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const body = JSON.stringify(post.body);
    // Straight through node:http when nothing intercepts fetch (direct-post.ts); a redirect is
    // sent again through fetch, which follows it.
    const url = options.fetch || !URL.canParse(post.url) ? undefined : new URL(post.url);
    if (url && canPostDirectly(url)) {
      const reply = await postDirectly(url, post.headers, body, controller.signal);
      if (!isRedirect(reply)) return { kind: 'response', status: reply.status, headers: { get: reply.header }, text: reply.text };
    }
    const init: RequestInit = { method: 'POST', headers: post.headers, body, signal: controller.signal };
    // Through the engine's fetch: scenario mocks and cassettes answer it inside their runs, and
    // globalThis.fetch is looked up per call, not captured at import, so a test's msw sees the rest.
    const response = await (options.fetch ? options.fetch(post.url, init) : engineFetch(post.url, init));
    // The body is read inside the timeout too: a server can stall after sending headers.
    const text = await response.text();
    return { kind: 'response', status: response.status, headers: response.headers, text };
  } catch (error) {
    if (timedOut) return { kind: 'timeout' };
    return { kind: 'network', error };
  } finally {
    clearTimeout(timer);
    post.signal?.removeEventListener('abort', onAbort);
  }
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

function parseReply(
  status: number,
  text: string,
  redact: (s: string) => string,
  fail: (message: string, code: string, extra?: { status?: number; cause?: unknown }) => ModelError,
): JsonReply {
  // Made only for an error: redacting and folding a whole reply is wasted on every good one.
  let excerpt: string | undefined;
  const excerptOfText = () => (excerpt ??= excerptOf(text, redact) || '(empty body)');
  const malformed = (reason: string, detail = excerptOfText()) => fail(`${reason}: ${detail}`, 'MODEL_BAD_RESPONSE', { status });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fail(`response body is not JSON (HTTP ${status}): ${excerptOfText()}`, 'MODEL_BAD_RESPONSE', { status, cause: error });
  }
  return {
    status,
    json,
    get excerpt() {
      return excerptOfText();
    },
    malformed,
  };
}

function exhausted(
  outcome: Attempt,
  attempts: number,
  url: string,
  fail: (message: string, code: string, extra?: { status?: number; cause?: unknown }) => ModelError,
  redact: (s: string) => string,
): ModelError {
  const prefix = `request to ${url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  switch (outcome.kind) {
    case 'timeout':
      return fail(`${prefix}: the last attempt timed out`, 'MODEL_TIMEOUT');
    case 'network':
      return fail(`${prefix}: network error: ${describeFetchError(outcome.error)}`, 'MODEL_RETRIES_EXHAUSTED', {
        cause: outcome.error,
      });
    case 'response':
      return fail(`${prefix}: last HTTP ${outcome.status}: ${errorMessageOf(outcome.text, redact)}`, 'MODEL_RETRIES_EXHAUSTED', {
        status: outcome.status,
      });
  }
}

/** The wait before the next attempt: the server's hint if any, else full jitter; both capped. */
function backoffMs(attempt: number, hintedMs: number | undefined, options: HttpModelOptions): number {
  const cap = options.maxRetryDelayMs ?? 30_000;
  if (hintedMs !== undefined) return Math.min(hintedMs, cap);
  const ceiling = Math.min(cap, (options.retryBaseMs ?? 500) * 2 ** attempt);
  return Math.floor((options.random ?? Math.random)() * ceiling);
}

/** `retry-after-ms` (OpenAI) wins over `Retry-After` (seconds or an HTTP date); junk is ignored. */
function retryAfterMs(headers: Pick<Headers, 'get'>): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The provider's own error text: `error.message` (OpenAI and Anthropic), else common variants, else an excerpt. */
function errorMessageOf(text: string, redact: (s: string) => string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return excerptOf(text, redact) || '(empty body)';
  }
  const record = isRecord(body) ? body : {};
  const error = record.error;
  const candidates = [isRecord(error) ? error.message : undefined, error, record.message, record.detail];
  const found = candidates.find((c): c is string => typeof c === 'string' && c !== '');
  return found !== undefined ? redact(found) : excerptOf(text, redact);
}

function excerptOf(text: string, redact: (s: string) => string): string {
  const clean = redact(text).replace(/\s+/g, ' ').trim();
  return clean.length > EXCERPT_CHARS ? `${clean.slice(0, EXCERPT_CHARS)}...` : clean;
}

function redactor(secrets: readonly string[]): (s: string) => string {
  const live = secrets.filter((s) => s.length > 0);
  return (s) => live.reduce((acc, secret) => acc.split(secret).join('[redacted]'), s);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Waits `ms`, rejecting early when `signal` aborts so a cancelled run does not sit out a backoff. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
