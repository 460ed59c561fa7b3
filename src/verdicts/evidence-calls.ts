import { ATTR, EVIDENCE_ATTR, SPAN, normalizeToolName } from '../spans/conventions.js';
import type { SpanRecord } from '../spans/span-record.js';
import type { ApprovalDecision, ApprovalRecord, CallOutcome, CallSource, SentHttpRequest, ToolCall } from './evidence-types.js';
import { numberAttr, operationOf, parseJsonOrRaw, stringAttr } from './span-kind.js';
import { toolSeq } from './span-order.js';

const OUTCOMES = new Set<string>(['ok', 'error', 'denied', 'pending']);
const SOURCES = new Set<string>(['model', 'plan', 'chain', 'flow']);
const DECISIONS = new Set<string>(['approve', 'deny', 'pending']);

/** Turns one execute_tool span into a ToolCall; `byId` finds its parent. */
export function toolCallFrom(span: SpanRecord, byId: ReadonlyMap<string, SpanRecord>): ToolCall {
  const rawName = stringAttr(span, ATTR.toolName) ?? span.name.replace(/^execute_tool /, '');
  const resultText = stringAttr(span, ATTR.toolResult);
  const result = parseJsonOrRaw(resultText);
  const parent = span.parent_id ? byId.get(span.parent_id) : undefined;
  const source = sourceOf(span, parent);
  const outcome = outcomeOf(span);
  const declaredError = span.attributes[ATTR.toolIsError];
  const gated = outcome === 'denied' || outcome === 'pending';
  // A denied or pending call was never executed: it is not a failure of the tool.
  const isError = !gated && (outcome === 'error' || declaredError === true || (declaredError === undefined && span.status === 'error'));
  const call: ToolCall = {
    span_id: span.span_id,
    name: normalizeToolName(rawName),
    raw_name: rawName,
    call_id: stringAttr(span, ATTR.toolCallId),
    args: parseJsonOrRaw(stringAttr(span, ATTR.toolArguments)),
    result,
    result_text: resultText === null ? null : typeof result === 'string' ? result : resultText,
    outcome: isError ? 'error' : outcome,
    is_error: isError,
    error_type: isError ? (stringAttr(span, ATTR.errorType) ?? stringAttr(span, ATTR.toolRefused)) : null,
    error_message: isError && span.status === 'error' && span.status_message ? span.status_message : null,
    refused: stringAttr(span, ATTR.toolRefused),
    read_only: span.attributes[ATTR.toolReadOnly] === true,
    command_allowed: span.attributes[ATTR.toolCommandAllowed] === true,
    kind: stringAttr(span, ATTR.toolKind),
    source,
    turn: numberAttr(span, ATTR.turn),
    nested: isNested(source, parent, byId),
    seq: toolSeq(span),
    start_ms: span.start_ms,
  };
  const request = sentRequestOf(span);
  if (request) call.request = request;
  return call;
}

/**
 * Whether an execute_tool span is a nested call (checks see it only with `nested: true`, the
 * test_run digest and the statistics never): made by a plan or chain, or inside another call.
 * report.html's timelines mark calls by this too, so their bars agree with the statistics.
 */
export function isNestedCall(span: SpanRecord, byId: ReadonlyMap<string, SpanRecord>): boolean {
  const parent = span.parent_id ? byId.get(span.parent_id) : undefined;
  return isNested(sourceOf(span, parent), parent, byId);
}

function isNested(source: CallSource, parent: SpanRecord | undefined, byId: ReadonlyMap<string, SpanRecord>): boolean {
  return source === 'plan' || source === 'chain' || (parent !== undefined && !isCallHolder(parent, byId));
}

/** The http request recorded on an execute_tool span (docs/spans.md), or undefined. */
function sentRequestOf(span: SpanRecord): SentHttpRequest | undefined {
  const method = stringAttr(span, ATTR.httpRequestMethod);
  const url = stringAttr(span, ATTR.urlFull);
  if (method === null || url === null) return undefined;
  const headers = parseJsonOrRaw(stringAttr(span, ATTR.httpRequestHeaders));
  const request: SentHttpRequest = { method, url, headers: isStringRecord(headers) ? headers : {}, status: numberAttr(span, ATTR.httpResponseStatusCode) };
  const body = stringAttr(span, ATTR.httpRequestBody);
  if (body !== null) request.body = body;
  return request;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
}

/** Turns one approval span into an ApprovalRecord; `seq` is that of the call it gated, if known. */
export function approvalFrom(span: SpanRecord, seq: number | null = null): ApprovalRecord {
  const decision = stringAttr(span, ATTR.approvalDecision) ?? 'pending';
  const tool = stringAttr(span, ATTR.toolName) ?? span.name.replace(/^approval /, '');
  return {
    tool: normalizeToolName(tool),
    raw_tool: tool,
    decision: (DECISIONS.has(decision) ? decision : 'pending') as ApprovalDecision,
    call_id: stringAttr(span, ATTR.toolCallId),
    span_id: span.span_id,
    seq,
    start_ms: span.start_ms,
  };
}

/**
 * Model and flow-step calls hang under the root or a component; anything deeper is nested. An
 * external agent's own spans (its `ai.generateText` step, an agent span) hold its model's calls
 * too, unless they sit inside another tool call (docs/spans.md, Spans of external agents).
 */
function isCallHolder(parent: SpanRecord, byId: ReadonlyMap<string, SpanRecord>, depth = 0): boolean {
  const op = operationOf(parent);
  if (op === SPAN.invokeAgent || op === SPAN.component || parent.parent_id === null) return true;
  if (parent.attributes[ATTR.externalExported] !== true || op === SPAN.executeTool || depth > MAX_EXTERNAL_DEPTH) return false;
  const above = byId.get(parent.parent_id);
  return above === undefined || isCallHolder(above, byId, depth + 1);
}

// Bounds the walk up an external agent's spans (they come from outside; a parent cycle must not hang).
const MAX_EXTERNAL_DEPTH = 256;

function sourceOf(span: SpanRecord, parent: SpanRecord | undefined): CallSource {
  const declared = stringAttr(span, ATTR.toolSource);
  if (declared && SOURCES.has(declared)) return declared as CallSource;
  if (!parent) return 'model';
  const op = operationOf(parent);
  if (op === SPAN.planStep) return 'plan';
  if (op === SPAN.chainStep) return 'chain';
  if (op === SPAN.component && stringAttr(parent, ATTR.componentType) === 'deterministic_step') return 'flow';
  return 'model';
}

function outcomeOf(span: SpanRecord): CallOutcome {
  const declared = stringAttr(span, EVIDENCE_ATTR.toolOutcome);
  if (declared && OUTCOMES.has(declared)) return declared as CallOutcome;
  const refused = stringAttr(span, ATTR.toolRefused);
  if (refused === 'denied' || refused === 'pending') return refused;
  if (span.status === 'error' || span.attributes[ATTR.toolIsError] === true || refused) return 'error';
  // Another tracer's span (an external agent's own) with no error returned, with or without a
  // recorded result: results are opt-in content in telemetry, and only agentcheck's own engine
  // has approval gates (its pending calls say so in agentcheck.tool.outcome).
  return 'ok';
}
