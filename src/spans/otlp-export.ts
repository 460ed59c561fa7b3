import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { agentcheckResourceAttributes } from './otlp-resource.js';
import { displayUrl } from '../config/display-url.js';
import { quoteCapped } from '../config/cap-text.js';
import { Redactor } from '../config/redactor.js';
import { watchPartialSuccess, type Rejection } from './otlp-partial-success.js';
import { resolveOtlpTarget, type OtlpTarget } from './otlp-target.js';
import { toReadableSpan } from './readable-span.js';
import type { RecordingSpan } from './recording-span.js';
import type { SpanRecord } from './span-record.js';
import type { SpanRecordSink, SpanStore } from './span-store.js';
import { installTracing } from './tracing.js';

/** A running OTLP export: call `finish` once at the end of the run. */
export interface OtlpExport {
  /** The target URL as printable (no credentials, no query). */
  readonly endpoint: string;
  /**
   * Exports a run's final records, as spans.jsonl gets them (an export made by exportRunRecords):
   * an external agent's joined spans, a bridge span marked failed afterwards and a resumed
   * scenario's joined trace are exported as written there.
   */
  exportRecords(records: readonly SpanRecord[]): void;
  /**
   * Exports what is still queued and shuts the exporter down. Resolves to the one warning line
   * to print when some spans did not reach the collector, else null. Never rejects.
   */
  finish(): Promise<string | null>;
}

type ExportCallback = Parameters<SpanExporter['export']>[1];
type ExportResult = Parameters<ExportCallback>[0];

// ExportResultCode.SUCCESS from @opentelemetry/core, which is not a direct dependency.
const SUCCESS = 0;
const FAILED = 1;

// Large enough that a 10,000-scenario scripted suite (about 6 spans a run) is not dropped while
// the collector catches up; a span held here is a few hundred bytes.
const MAX_QUEUE_SIZE = 65_536;
const MAX_EXPORT_BATCH_SIZE = 1_024;
// Exports start within a second, so a long suite streams to the collector instead of bursting at the end.
const SCHEDULED_DELAY_MS = 1_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Starts exporting every span the process records, when `--otlp` or OTEL_EXPORTER_OTLP_* asks
 * for it (else returns null). Spans go as OTLP/HTTP JSON or protobuf (the SDK's own exporters, as
 * OTEL_EXPORTER_OTLP_PROTOCOL says) through a BatchSpanProcessor fed from the span store's
 * records. The SDK is loaded only with this module, that is only when spans are exported.
 * Throws a ConfigError for a malformed URL, header list or timeout.
 */
export function startOtlpExport(flag: string | undefined, env: Readonly<Record<string, string | undefined>>, store?: SpanStore): OtlpExport | null {
  const target = resolveOtlpTarget(flag, env);
  if (!target) return null;
  return attachOtlpExport(target, store ?? installTracing().store);
}

/** Attaches an exporter for `target` to `store` (the set-up behind startOtlpExport): every span is exported as it ends. */
export function attachOtlpExport(target: OtlpTarget, store: SpanStore): OtlpExport {
  return createOtlpExport(target, store);
}

/**
 * An exporter for `target` fed with the runs' final records through exportRecords
 * (`agentcheck run --otlp`): the collector gets exactly what spans.jsonl holds (docs/otlp-export.md).
 */
export function exportRunRecords(target: OtlpTarget): OtlpExport {
  return createOtlpExport(target);
}

function createOtlpExport(target: OtlpTarget, store?: SpanStore): OtlpExport {
  const timeoutMillis = target.timeoutMillis ?? DEFAULT_TIMEOUT_MS;
  const Exporter = target.protocol === 'http/protobuf' ? ProtobufTraceExporter : JsonTraceExporter;
  const sdkExporter = new Exporter({ url: target.url, headers: target.headers, timeoutMillis });
  const exporter = new ReportingExporter(sdkExporter);
  watchPartialSuccess(sdkExporter, (rejection) => exporter.noteRejection(rejection));
  const batch = new BatchSpanProcessor(exporter, {
    maxQueueSize: MAX_QUEUE_SIZE,
    maxExportBatchSize: MAX_EXPORT_BATCH_SIZE,
    scheduledDelayMillis: SCHEDULED_DELAY_MS,
    // The exporter's own limit (retries included) decides; this only guards against a hang.
    exportTimeoutMillis: timeoutMillis + 1_000,
  });
  // The environment's resource attributes (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) over agentcheck's own.
  const resource = resourceFromAttributes({ ...agentcheckResourceAttributes(), ...target.resource });
  const counting = new CountingProcessor(batch, resource);
  store?.addProcessor(counting);
  const endpoint = displayUrl(target.url);
  let finished: Promise<string | null> | undefined;
  return {
    endpoint,
    exportRecords: (records) => {
      for (const record of records) counting.onEnd(record);
    },
    finish: () =>
      (finished ??= (async () => {
        try {
          await batch.shutdown();
        } catch (error) {
          exporter.noteFailure(error);
        }
        store?.removeProcessor(counting);
        // The collector's own words may quote what it was sent: the export's header values go.
        const scrub = new Redactor().add(Object.values(target.headers));
        return warningLine(endpoint, target.source, exporter, counting.ended, (text) => scrub.text(text));
      })()),
  };
}

/** Hands each ended span to the batch processor in the SDK's shape, counting them to tell how many never reached the collector. */
class CountingProcessor implements SpanRecordSink {
  ended = 0;
  constructor(
    private readonly inner: BatchSpanProcessor,
    private readonly resource: ReadableSpan['resource'],
  ) {}
  onEnd(record: SpanRecord, span?: RecordingSpan): void {
    this.ended++;
    this.inner.onEnd(toReadableSpan(record, span, this.resource));
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/**
 * Wraps the OTLP exporter to remember the first failure (the SDK only logs through `diag`, which
 * is silent) and to stop sending after it: the exporter has already retried for its whole time
 * limit, so a dead collector must not add that wait to every later batch of the suite.
 */
class ReportingExporter implements SpanExporter {
  exported = 0;
  firstError: unknown = undefined;
  failed = false;
  /** Spans the collector accepted the request of but said it dropped (partial success), and its first reason. */
  rejected = 0;
  rejectedBecause: string | undefined;

  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: ExportCallback): void {
    if (this.failed) return done({ code: FAILED, error: new Error('skipped after an earlier failure') } as ExportResult);
    try {
      this.inner.export(spans, (result) => {
        if (result.code === SUCCESS) this.exported += spans.length;
        else this.noteFailure(result.error ?? new Error('the exporter reported a failure without a reason'));
        done(result);
      });
    } catch (error) {
      this.noteFailure(error);
      done({ code: FAILED, error: error as Error } as ExportResult);
    }
  }

  noteFailure(error: unknown): void {
    if (!this.failed) this.firstError = error;
    this.failed = true;
  }

  noteRejection(rejection: Rejection): void {
    this.rejected += rejection.spans;
    this.rejectedBecause ??= rejection.message;
  }

  async shutdown(): Promise<void> {
    await this.inner.shutdown();
  }

  async forceFlush(): Promise<void> {
    await this.inner.forceFlush?.();
  }
}

function warningLine(endpoint: string, source: string, exporter: ReportingExporter, ended: number, scrub: (text: string) => string): string | null {
  // Spans of requests that failed or were dropped, plus those a partial success rejected.
  const lost = Math.min(ended, Math.max(0, ended - exporter.exported) + exporter.rejected);
  if (!exporter.failed && lost === 0) return null;
  const why: string[] = [];
  if (exporter.failed) why.push(describeExportError(exporter.firstError));
  if (exporter.rejected > 0) {
    // Quoted as JSON: one line, its control characters escaped, cut at 200 characters.
    const reason = exporter.rejectedBecause === undefined ? '' : `: ${quoteCapped(scrub(exporter.rejectedBecause))}`;
    why.push(`the collector rejected ${exporter.rejected} span(s)${reason}`);
  }
  if (!why.length) why.push('spans were dropped before export (queue full)');
  return `agentcheck: warning: OTLP export to ${endpoint} (from ${source}) failed: ${why.join('; ')}; ${lost} of ${ended} spans were not exported (the suite result is unaffected)`;
}

/** A short reason: the HTTP status or the network error, never a response body or headers. */
function describeExportError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { code?: unknown }).code;
  if (typeof status === 'number') return `HTTP ${status}${error.message ? ` ${error.message}` : ''}`;
  return error.message.split('\n')[0] || error.name;
}
