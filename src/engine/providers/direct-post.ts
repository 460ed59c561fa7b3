import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { requestIntercepted } from '../engine-fetch.js';

/**
 * A provider request sent with node:http instead of fetch. Node 20's fetch costs about 1 ms of
 * CPU per request (Request and Response objects, web streams, abort signals), which makes a
 * suite of many concurrent model calls CPU-bound (BENCHMARKS.md, latency). The request on the
 * wire is the one fetch sends (the same headers, keep-alive connections, gzip and deflate), the
 * body is decoded as fetch's text() decodes it, and failures carry fetch's message, so errors
 * read the same whichever way a request went.
 */

/** An HTTP reply as postJsonWithRetry reads it. */
export interface PostedReply {
  status: number;
  header(name: string): string | null;
  text: string;
}

// Whatever replaced globalThis.fetch since (msw, a test's stub)
// must see every request: then requests go through fetch as before.
const startupFetch = globalThis.fetch;

// The ports fetch refuses to connect to (the Fetch standard's "bad ports"): requests to them
// stay with fetch, which fails them as before.
const FETCH_BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * True when `url` may be posted directly: the run's requests are not intercepted (scenario mocks,
 * cassettes), fetch is still Node's own, and the URL is plain http(s) that fetch would send.
 */
export function canPostDirectly(url: URL): boolean {
  return (
    !requestIntercepted() &&
    globalThis.fetch === startupFetch &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !url.username &&
    !url.password &&
    !FETCH_BAD_PORTS.has(Number(url.port || (url.protocol === 'https:' ? 443 : 80)))
  );
}

const agents = new Map<string, Promise<Agent>>();
/**
 * The keep-alive connections of a protocol, shared by every request of the process (as fetch's
 * are); each module loads with its first request (node:https brings TLS, which http runs skip).
 */
const keepAliveAgent = (protocol: string): Promise<Agent> => {
  let agent = agents.get(protocol);
  if (!agent) {
    agent =
      protocol === 'https:'
        ? import('node:https').then((https) => new https.Agent({ keepAlive: true }))
        : import('node:http').then((http) => new http.Agent({ keepAlive: true }));
    agents.set(protocol, agent);
  }
  return agent;
};

/** What postDirectly takes of node:http or node:https (their request functions share this form). */
type RequestModule = { request: typeof import('node:http').request };
const modules = new Map<string, Promise<RequestModule>>();
/**
 * node:http or node:https itself (the CommonJS module object, which an interceptor patches), loaded
 * once: in the bundled CLI every import() of a built-in copies all of its exports again.
 */
const httpModule = (protocol: string): Promise<RequestModule> => {
  let loaded = modules.get(protocol);
  if (!loaded) {
    loaded = protocol === 'https:' ? import('node:https').then((https) => https.default as RequestModule) : import('node:http').then((http) => http.default);
    modules.set(protocol, loaded);
  }
  return loaded;
};

// fetch's text() decoding (a byte order mark dropped); decode() without `stream` keeps no state.
const utf8 = new TextDecoder();

/** The headers fetch adds to every request when the caller did not set them. */
const FETCH_DEFAULT_HEADERS: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/**
 * POSTs `body` to `url`; resolves with the whole reply, rejects with fetch's errors: "fetch failed"
 * before a response, "terminated" while reading its body (the reason in `cause`).
 */
export async function postDirectly(url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<PostedReply> {
  const agent = await keepAliveAgent(url.protocol);
  // Looked up on the module object per call, like globalThis.fetch: an interceptor that patches
  // http.request (msw's for ClientRequest) sees these requests too.
  const { request } = await httpModule(url.protocol);
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) sent[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(FETCH_DEFAULT_HEADERS)) sent[name] ??= value;
  sent['content-length'] = String(Buffer.byteLength(body));
  return new Promise<PostedReply>((settle, rejectWith) => {
    // The caller's signal is followed here rather than handed to http.request, whose own
    // following of it (a listener and end-of-stream watchers per request) cost about 35 us of CPU
    // per call; an abort destroys the request as http.request's would.
    const onAbort = () => req?.destroy(abortError(signal.reason));
    const done = () => signal.removeEventListener('abort', onAbort);
    const resolve = (reply: PostedReply) => (done(), settle(reply));
    const reject = (error: unknown) => (done(), rejectWith(error));
    const fail = (cause: unknown) => reject(new TypeError('fetch failed', { cause }));
    if (signal.aborted) {
      fail(abortError(signal.reason));
      return;
    }
    let req: ClientRequest | undefined;
    try {
      req = request(url, { method: 'POST', headers: sent, agent });
    } catch (error) {
      fail(error);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      const terminated = (cause: unknown) => reject(new TypeError('terminated', { cause }));
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      // The connection dropped before the body's end.
      res.on('aborted', () => terminated(new Error('other side closed')));
      res.on('error', terminated);
      res.on('end', () => {
        try {
          const text = utf8.decode(decode(Buffer.concat(chunks), res.headers['content-encoding']));
          resolve({ status: res.statusCode ?? 0, header: (name) => headerValue(res, name), text });
        } catch (error) {
          terminated(error);
        }
      });
      res.on('close', () => {
        if (!res.complete) terminated(new Error('other side closed'));
      });
    });
    req.end(body);
  });
}

/** The error an aborted request fails with, as node:http makes it for a request's own signal. */
function abortError(reason: unknown): Error {
  return Object.assign(new Error('The operation was aborted', { cause: reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** True for a reply fetch would have followed (a redirect with a Location). */
export function isRedirect(reply: PostedReply): boolean {
  return [301, 302, 303, 307, 308].includes(reply.status) && reply.header('location') !== null;
}

function headerValue(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Undoes the content codings fetch undoes (the last applied first); others pass through as fetch passes them. */
function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (!encoding) return body;
  // node:zlib loads with the first encoded reply (start-up).
  const { brotliDecompressSync, gunzipSync } = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  let out = body;
  for (const coding of encoding
    .toLowerCase()
    .split(',')
    .map((part) => part.trim())
    .reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = gunzipSync(out);
    else if (coding === 'deflate') out = inflateDeflate(out);
    else if (coding === 'br') out = brotliDecompressSync(out);
    else if (coding !== 'identity' && coding !== '') return out;
  }
  return out;
}

// "deflate" is zlib-wrapped by the standard, but some servers send it raw.
function inflateDeflate(body: Buffer): Buffer {
  const { inflateRawSync, inflateSync } = createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
  try {
    return inflateSync(body);
  } catch {
    return inflateRawSync(body);
  }
}
