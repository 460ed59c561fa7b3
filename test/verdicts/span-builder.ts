/**
 * Builds synthetic spans that follow docs/spans.md exactly, so verdict tests need no engine.
 * Usage: `const run = new RunBuilder(); run.modelCalls([{name: 'a', args: {}}]); run.text(); run.spans()`.
 */
import { ATTR, EVIDENCE_ATTR, SPAN } from '../../src/spans/conventions.js';
import type { StopReason } from '../../src/engine/turn.js';
import type { AttributeValue, SpanRecord } from '../../src/spans/span-record.js';

/** How an execute_tool span ended and where it hangs. */
export interface ToolSpanOptions {
  result?: unknown;
  /** ok (default when a result is given), error, denied, pending. */
  outcome?: 'ok' | 'error' | 'denied' | 'pending';
  error_type?: string;
  /** `agentcheck.tool.refused` on an error call that never ran (`unknown_tool`, `invalid_arguments`); also its error type. */
  refused?: string;
  read_only?: boolean;
  source?: 'model' | 'plan' | 'chain' | 'flow';
  /** Parent span id; default the root. */
  parent?: string;
  turn?: number;
  call_id?: string;
  kind?: string;
  /** `agentcheck.tool.seq`; default the builder's next seq when built with `{seq: true}`, else none (older spans). */
  seq?: number;
  /** Start time instead of the next tick, to make start times tie or run against call order. */
  start_ms?: number;
}

/** Root attributes set when the run is closed. */
export interface FinishOptions {
  stop_reason?: StopReason;
  output?: string;
  resolved?: Record<string, unknown>;
  flow_state?: Record<string, unknown>;
  skills?: string[];
  /** Leave usage totals off the root (evidence then sums the chat spans). */
  no_usage_totals?: boolean;
}

const DEFAULT_RESOLVED = {
  harness: 'agentcheck/0.1.0',
  provider: 'scripted',
  model: 'scripted',
  parameters: {},
  max_turns: 8,
  permissions_mode: 'allow',
  tools: [],
  commands: { allow: [] },
  skills: [],
  skills_delivery: 'inline',
  skills_not_delivered: [],
  revision_id: 'test-bot',
  revision_hash: 'h',
  delta_hash: null,
};

/** Accumulates the spans of one invoke; `spans()` closes the root and returns them in start order. */
export class RunBuilder {
  readonly traceId: string;
  readonly rootId: string;
  private readonly records: SpanRecord[] = [];
  private clock = 1_700_000_000_000;
  private nextId = 1;
  private turn = 0;
  private calls = 0;
  private seq = 0;
  private readonly rootStart: number;
  private readonly autoSeq: boolean;

  /** `seq: true` stamps every tool span with the next `agentcheck.tool.seq`, as the engine does. */
  constructor(
    readonly agent = 'test-bot',
    traceId = 'trace-1',
    options: { seq?: boolean } = {},
  ) {
    this.traceId = traceId;
    this.autoSeq = options.seq ?? false;
    this.rootId = this.id();
    this.rootStart = this.tick();
  }

  /** A chat span (one model call); returns its turn index. */
  chat(usage: { input?: number; output?: number; finish?: string } = {}): number {
    const turn = this.turn++;
    this.add(`${SPAN.chat} scripted`, this.rootId, {
      [ATTR.operationName]: SPAN.chat,
      [ATTR.providerName]: 'scripted',
      [ATTR.requestModel]: 'scripted',
      [ATTR.responseModel]: 'scripted',
      [ATTR.finishReasons]: [usage.finish ?? 'stop'],
      [ATTR.inputTokens]: usage.input ?? 10,
      [ATTR.outputTokens]: usage.output ?? 5,
      [ATTR.turn]: turn,
    });
    return turn;
  }

  /** One model response asking for these calls (run in call order), all returning `{ok: true}` unless told. */
  modelCalls(calls: Array<{ name: string; args?: unknown } & ToolSpanOptions>): string[] {
    const turn = this.chat({ finish: 'tool_calls' });
    return calls.map(({ name, args, ...options }) => this.tool(name, args ?? {}, { result: { ok: true }, ...options, turn }));
  }

  /** A final text response. */
  text(): void {
    this.chat({ finish: 'stop' });
  }

  /** An execute_tool span; returns its span id. */
  tool(name: string, args: unknown, options: ToolSpanOptions = {}): string {
    const source = options.source ?? 'model';
    const outcome = options.outcome ?? (options.result === undefined ? 'pending' : 'ok');
    const attributes: Record<string, AttributeValue> = {
      [ATTR.operationName]: SPAN.executeTool,
      [ATTR.toolName]: name,
      [ATTR.toolCallId]: options.call_id ?? `call_${++this.calls}`,
      [ATTR.toolType]: 'function',
      [ATTR.toolArguments]: JSON.stringify(args),
      [ATTR.toolSource]: source,
      [ATTR.toolKind]: options.kind ?? 'returns',
      [ATTR.toolReadOnly]: options.read_only ?? false,
      [EVIDENCE_ATTR.toolOutcome]: outcome,
      [ATTR.toolIsError]: outcome === 'error',
    };
    if (source === 'model') attributes[ATTR.turn] = options.turn ?? Math.max(0, this.turn - 1);
    if (options.result !== undefined && (outcome === 'ok' || outcome === 'error')) {
      attributes[ATTR.toolResult] = JSON.stringify(options.result);
    }
    if (outcome === 'denied' || outcome === 'pending') attributes[ATTR.toolRefused] = outcome;
    if (outcome === 'error' && options.refused) attributes[ATTR.toolRefused] = options.refused;
    if (outcome === 'error') attributes[ATTR.errorType] = options.error_type ?? options.refused ?? 'tool_error';
    const seq = options.seq ?? (this.autoSeq ? this.seq + 1 : undefined);
    if (seq !== undefined) attributes[ATTR.toolSeq] = this.seq = seq;
    return this.add(`${SPAN.executeTool} ${name}`, options.parent ?? this.rootId, attributes, outcome === 'error' ? 'error' : 'unset', options.start_ms);
  }

  /** An approval span (precedes the execute_tool span of the same call id); `start_ms` as for tool(). */
  approval(tool: string, decision: 'approve' | 'deny' | 'pending', callId = `call_${this.calls + 1}`, start_ms?: number): string {
    return this.add(
      `${SPAN.approval} ${tool}`,
      this.rootId,
      {
        [ATTR.toolName]: tool,
        [ATTR.toolCallId]: callId,
        [ATTR.approvalDecision]: decision,
      },
      'unset',
      start_ms,
    );
  }

  /** The start time the next span would get, to give several spans the same one. */
  now(): number {
    return this.clock + 1;
  }

  /** A flow component span under an invoke_workflow span (created on first use). */
  component(name: string, type: string): string {
    let workflow = this.records.find((span) => span.name.startsWith(SPAN.invokeWorkflow));
    if (!workflow) {
      this.add(`${SPAN.invokeWorkflow} flow`, this.rootId, { [ATTR.flowName]: 'flow' });
      workflow = this.records[this.records.length - 1];
    }
    return this.add(`${SPAN.component} ${name}`, workflow.span_id, { [ATTR.componentName]: name, [ATTR.componentType]: type });
  }

  /** A plan_step or chain_step span under a composite tool's execute_tool span; `start_ms` as for tool(). */
  step(kind: 'plan' | 'chain', parent: string, tool: string, start_ms?: number): string {
    const attributes: Record<string, AttributeValue> = { [ATTR.toolName]: tool };
    if (kind === 'plan') attributes[ATTR.planStepPath] = 'steps[0].tools[0]';
    else Object.assign(attributes, { [ATTR.chainStepId]: tool, [ATTR.chainAttempt]: 1 });
    return this.add(`${kind === 'plan' ? SPAN.planStep : SPAN.chainStep} ${tool}`, parent, attributes, 'unset', start_ms);
  }

  /** Closes the run: the root span with its attributes, then every span in the order it was added. */
  spans(options: FinishOptions = {}): SpanRecord[] {
    const chats = this.records.filter((span) => span.name.startsWith(`${SPAN.chat} `));
    const sum = (key: string) => chats.reduce((total, span) => total + Number(span.attributes[key] ?? 0), 0);
    const attributes: Record<string, AttributeValue> = {
      [ATTR.operationName]: SPAN.invokeAgent,
      [ATTR.agentName]: this.agent,
      [ATTR.conversationId]: 'conv-1',
      [ATTR.resolvedConfig]: JSON.stringify(options.resolved ?? DEFAULT_RESOLVED),
      [ATTR.skillsDelivered]: options.skills ?? [],
      [ATTR.runKind]: 'test',
      [ATTR.stopReason]: options.stop_reason ?? 'end_turn',
      [EVIDENCE_ATTR.output]: options.output ?? 'done',
    };
    if (!options.no_usage_totals) {
      attributes[ATTR.inputTokens] = sum(ATTR.inputTokens);
      attributes[ATTR.outputTokens] = sum(ATTR.outputTokens);
    }
    if (options.flow_state) attributes[EVIDENCE_ATTR.flowState] = JSON.stringify(options.flow_state);
    const end = this.tick();
    const root: SpanRecord = {
      trace_id: this.traceId,
      span_id: this.rootId,
      parent_id: null,
      name: `${SPAN.invokeAgent} ${this.agent}`,
      kind: 'internal',
      status: options.stop_reason === 'error' ? 'error' : 'unset',
      start_ms: this.rootStart,
      end_ms: end,
      duration_ms: end - this.rootStart,
      attributes,
      ended: true,
    };
    return [root, ...this.records];
  }

  private add(name: string, parent: string, attributes: Record<string, AttributeValue>, status: SpanRecord['status'] = 'unset', at?: number): string {
    const start = at ?? this.tick();
    // Later spans must not start before a span given an explicit time.
    this.clock = Math.max(this.clock, start);
    const span: SpanRecord = {
      trace_id: this.traceId,
      span_id: this.id(),
      parent_id: parent,
      name,
      kind: 'internal',
      status,
      start_ms: start,
      end_ms: start + 0.5,
      duration_ms: 0.5,
      attributes,
      ended: true,
    };
    this.records.push(span);
    return span.span_id;
  }

  private id(): string {
    return (this.nextId++).toString(16).padStart(16, '0');
  }

  private tick(): number {
    return (this.clock += 1);
  }
}
