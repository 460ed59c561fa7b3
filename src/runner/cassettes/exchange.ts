import type { RecordedRequest, RecordedResponse } from './cassette.js';
import type { SecretStripper } from './secret-stripper.js';

/**
 * Response headers not stored: hop-by-hop and framing headers describe the bytes of the
 * original connection (the stored body is already decoded), and `date` would make every
 * re-recording differ for nothing.
 */
const UNSTORED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length', 'date']);

/** Statuses whose response may not carry a body (the Response constructor rejects one). */
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** Reads an intercepted request (through a clone: the original still goes out) with secrets stripped. */
export async function readRequest(request: Request, stripper: SecretStripper): Promise<RecordedRequest> {
  // Headers first: they teach the stripper the key, which the URL and body are then scrubbed of.
  const headers = stripper.headers(request.headers);
  const url = stripper.url(request.url);
  const raw = await request.clone().text();
  // Secret-named body fields (`api_key` from llm.parameters) teach it their values too.
  if (raw !== '') stripper.learnJson(parseJson(raw)?.value);
  const text = stripper.text(raw);
  const recorded: RecordedRequest = { method: request.method.toUpperCase(), url, headers };
  if (text !== '') {
    const json = parseJson(text);
    recorded.body = json ? json.value : text;
  }
  return recorded;
}

/** Reads a live response for the cassette (consuming its body), with secrets stripped. */
export async function readResponse(response: Response, stripper: SecretStripper): Promise<RecordedResponse> {
  const headers = stripper.headers(response.headers, UNSTORED_RESPONSE_HEADERS);
  const text = stripper.text(await response.text());
  const json = isJsonType(headers['content-type']) ? parseJson(text) : undefined;
  return json === undefined
    ? { status: response.status, headers, body: text, body_type: 'text' }
    : { status: response.status, headers, body: json.value, body_type: 'json' };
}

/** A fresh Response from a stored one (each replay gets its own, since a body is read once). */
export function toResponse(recorded: RecordedResponse): Response {
  const text = recorded.body_type === 'json' ? JSON.stringify(recorded.body) : String(recorded.body ?? '');
  const body = NULL_BODY_STATUS.has(recorded.status) || text === '' ? null : text;
  return new Response(body, { status: recorded.status, headers: recorded.headers });
}

/** `{value}` when `text` is JSON, else undefined (a wrapper, so a JSON `null` body is not lost). */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function isJsonType(contentType: string | undefined): boolean {
  return /[/+]json\b/i.test(contentType ?? '');
}
