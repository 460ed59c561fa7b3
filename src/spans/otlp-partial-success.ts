import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/** What a collector's OTLP partial success said it dropped: `rejected_spans` > 0 and its `error_message`. */
export interface Rejection {
  spans: number;
  message?: string;
}

type ResponseHandler = { handleResponse?: (response: unknown) => void };

/**
 * Calls `note` for every export response that is a partial success rejecting spans
 * (OTLP specification, "Partial Success"), JSON and protobuf alike. The SDK exporters decode the
 * response but hand it only to a handler that logs through `diag` (silent here); that handler is
 * wrapped. False when the exporter has no such handler (another SDK version): nothing is noted.
 */
export function watchPartialSuccess(exporter: SpanExporter, note: (rejection: Rejection) => void): boolean {
  const handler = (exporter as { _delegate?: { _responseHandler?: ResponseHandler } })._delegate?._responseHandler;
  const original = handler?.handleResponse;
  if (!handler || typeof original !== 'function') return false;
  handler.handleResponse = (response: unknown) => {
    const rejection = rejectionOf(response);
    if (rejection) note(rejection);
    original.call(handler, response);
  };
  return true;
}

/** The rejection a decoded ExportTraceServiceResponse reports, if it rejected any span. */
export function rejectionOf(response: unknown): Rejection | undefined {
  const partial = (response as { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } } | null)?.partialSuccess;
  if (!partial || typeof partial !== 'object') return undefined;
  // int64: a number from protobuf, a string in OTLP/JSON.
  const raw = partial.rejectedSpans;
  const spans = typeof raw === 'number' || typeof raw === 'bigint' || typeof raw === 'string' ? Number(raw) : NaN;
  if (!Number.isSafeInteger(spans) || spans <= 0) return undefined;
  const message = typeof partial.errorMessage === 'string' && partial.errorMessage.trim() !== '' ? partial.errorMessage : undefined;
  return { spans, ...(message === undefined ? {} : { message }) };
}
