import { displayUrl } from '../../config/display-url.js';
import { RunError } from '../../config/errors.js';
import { redirectNote } from '../../engine/external/redirect-note.js';
import { decodeTraceRequest } from '../../spans/otlp-decode.js';
import { OtlpDecodeError } from '../../spans/otlp-decode-error.js';
import type { SpanRecord } from '../../spans/span-record.js';

/** The placeholder `external.http.spans_url` takes the trace id the agent answered with in. */
export const TRACE_ID_PLACEHOLDER = '{trace_id}';
/** How long reading the spans URL may take (the run's own signal may end it sooner). */
const SPANS_URL_TIMEOUT_MS = 30_000;

/**
 * Reads an http engine's spans (docs/external-agents.md, Its own spans): GET `spansUrl` with
 * `{trace_id}` replaced by the trace id the agent answered with, expecting an OTLP JSON trace
 * export (`{"resourceSpans": [...]}`). Throws a RunError naming the URL (without credentials or
 * query) when the id is missing, the request fails or the body is not such an export.
 */
export async function readSpansUrl(
  spansUrl: string,
  traceId: string | undefined,
  headers: () => Record<string, string> = () => ({}),
  signal?: AbortSignal,
): Promise<SpanRecord[]> {
  if (spansUrl.includes(TRACE_ID_PLACEHOLDER) && !traceId) {
    throw new RunError(
      'SPANS_URL_FAILED',
      `external.http.spans_url needs the trace id, but the agent's answer had no "trace_id"; return {"output": ..., "trace_id": ...}`,
    );
  }
  const url = spansUrl.split(TRACE_ID_PLACEHOLDER).join(encodeURIComponent(traceId ?? ''));
  const shown = displayUrl(url);
  let filled: Record<string, string>;
  try {
    filled = headers();
  } catch (error) {
    // A header the turn could not fill either (an unset {{ env.NAME }}): the turn's error says so first.
    if (error instanceof RunError) throw new RunError('SPANS_URL_FAILED', `reading spans from ${shown} failed: ${error.message}`, { cause: error });
    throw error;
  }
  const timeout = AbortSignal.timeout(SPANS_URL_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...filled },
      // A redirect is a non-2xx answer, as for the invoke POST (docs/external-agents.md).
      redirect: 'manual',
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
  } catch (error) {
    // fetch's own message may quote the whole URL (credentials, query): only the shown form is said.
    const why = (error as Error).message.split(url).join(shown);
    throw new RunError('SPANS_URL_FAILED', `reading spans from ${shown} failed: ${why}`, { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw new RunError('SPANS_URL_FAILED', `reading spans from ${shown} failed: HTTP ${response.status}${redirectNote(response, url)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RunError('SPANS_URL_FAILED', `the spans from ${shown} are not JSON; expected an OTLP JSON trace export ({"resourceSpans": [...]})`);
  }
  // Any JSON object is not an export: a spans_url pointing at the wrong endpoint must not yield "no spans".
  if (body === null || typeof body !== 'object' || !('resourceSpans' in body)) {
    throw new RunError('SPANS_URL_FAILED', `the spans from ${shown} are not an OTLP JSON trace export: expected {"resourceSpans": [...]}`);
  }
  try {
    return decodeTraceRequest(body).map((span) => span.record);
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw new RunError('SPANS_URL_FAILED', `the spans from ${shown} are not an OTLP JSON trace export: ${error.message}`);
    throw error;
  }
}
