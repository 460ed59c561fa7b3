import { capText, safeJson, spanResultJson } from './result-text.js';
import { failureMessage, isErrorResult } from './failed-call.js';
import { SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AgentcheckError } from '../../config/errors.js';
import { userSchemaProblems } from '../../config/json-schema.js';
import { formatPath } from '../../config/source.js';
import { ATTR, EVIDENCE_ATTR, SPAN } from '../../spans/conventions.js';
import { answerFor, type ApprovalAnswer, type ApprovalPolicy } from '../permissions/approval-policy.js';
import { callPermission, isAllowListedCommand } from '../permissions/permission.js';
import type { AgentSpec } from '../revision/types.js';
import { throwIfRunAborted } from '../run-aborted.js';
import type { PromptSecurity } from '../security/prompt-security.js';
import type { Workspace } from '../workspace/workspace.js';
import type { RunProcesses } from './process/run-processes.js';
import { withSchemaDefaults } from './schema-defaults.js';
import type { CallResult, CallSource, Tool, ToolContext, ToolOutcome } from './tool.js';

/** Process-wide start order of tool calls (see ATTR.toolSeq). */
let toolSeq = 0;

/** The next value of the process-wide tool call order (tool calls made outside a ToolCaller take one too). */
export function nextToolSeq(): number {
  return ++toolSeq;
}

/**
 * How deep calls may nest: a model's call is depth 0, a call a chain or plan makes from it is
 * depth 1, and so on. A deeper call is refused as a tool error, so composite tools that call
 * each other (which load validation refuses, but a host may build tools by hand) cannot recurse
 * until the stack overflows.
 */
export const MAX_CALL_DEPTH = 16;

/** Longest tool result text handed to the model; a larger one is cut with a marker. */
export const MAX_RESULT_CHARS = 200_000;
/** Longest result text kept on a span. */
export const MAX_SPAN_RESULT_CHARS = 100_000;

export interface ToolCallerOptions {
  /** Tools the model may call, by name. */
  tools: ReadonlyMap<string, Tool>;
  /** Extra tools only plans, chains and flow steps may call by name (the built-ins). */
  fallbackTools?: ReadonlyMap<string, Tool>;
  agent: AgentSpec;
  approvals?: ApprovalPolicy;
  security: PromptSecurity;
  tracer: Tracer;
  workspace: Workspace;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  processes?: RunProcesses;
  /**
   * Tools the model may call when they differ from `tools` (a flow agent component's toolset).
   * Plans, chains and flow steps still reach `tools` and `fallbackTools`.
   */
  modelTools?: ReadonlyMap<string, Tool>;
}

export interface CallRequest {
  name: string;
  args: unknown;
  source: CallSource;
  parent: Context;
  callId?: string;
  /** Model call index (model calls only). */
  turn?: number;
  /** A decision given on resume, which answers the gate instead of the policy. */
  decision?: ApprovalAnswer;
  /** Why the model's arguments could not be read (not JSON): the call is refused as invalid. */
  argsError?: string;
  /** How deep this call nests: 0 for the model's own calls (the default), +1 per composite tool. */
  depth?: number;
}

/** Callers that can pause the run at a gate: the model's turn and a flow step. Plans and chains cannot. */
const CAN_WAIT: ReadonlySet<CallSource> = new Set(['model', 'flow']);

interface Refusal {
  outcome: 'error' | 'denied' | 'pending';
  reason: string;
  refused: string;
}

/**
 * The one path every tool call takes, from the model, a plan, a chain or a flow step:
 * lookup, argument validation, permissions and approvals, execution, prompt security, and
 * an `execute_tool` span. It never throws for a tool's failure: the failure is the result.
 */
export class ToolCaller {
  // Shared with restricted callers, so nested call ids stay unique within one run.
  constructor(
    private readonly options: ToolCallerOptions,
    private readonly ids = { nested: 0 },
  ) {}

  /** The same call path offering the model only `modelTools` (a flow agent component's toolset). */
  restrictedTo(modelTools: ReadonlyMap<string, Tool>): ToolCaller {
    return new ToolCaller({ ...this.options, modelTools }, this.ids);
  }

  /** Runs one call and records it. */
  async call(request: CallRequest): Promise<CallResult> {
    throwIfRunAborted(this.options.signal);
    const { tracer } = this.options;
    const callId = request.callId ?? `${request.source}_${++this.ids.nested}`;
    const tool = this.lookup(request.name, request.source);
    let refusal = this.refuse(tool, request);

    if (!refusal && tool) {
      const permission = callPermission(tool, request.args, this.options.agent);
      if (permission === 'deny') {
        refusal = { outcome: 'denied', refused: 'denied', reason: `Permission denied: the agent's permissions do not allow ${tool.name}.` };
      } else if (permission === 'ask') {
        const decision = request.decision ?? answerFor(this.options.approvals, tool.name);
        if (!decision && !CAN_WAIT.has(request.source)) {
          // Nobody is asked and nothing waits: a failed call of the composite, not a pending approval.
          refusal = {
            outcome: 'error',
            refused: 'approval_required',
            reason: `Refused: ${tool.name} needs approval, which a ${request.source} cannot wait for; allow the tool or answer it in the approval policy.`,
          };
        } else {
          this.recordApproval(tool.name, callId, decision ?? 'pending', request.parent);
          if (decision === 'deny') refusal = { outcome: 'denied', refused: 'denied', reason: `Denied: the user did not approve this call to ${tool.name}.` };
          if (!decision) refusal = { outcome: 'pending', refused: 'pending', reason: `Waiting for approval of ${tool.name}.` };
        }
      }
    }

    const span = tracer.startSpan(`${SPAN.executeTool} ${request.name}`, { attributes: this.startAttributes(request, callId, tool) }, request.parent);
    try {
      if (refusal) return this.finishRefused(span, refusal);
      return await this.execute(span, tool as Tool, request);
    } finally {
      span.end();
    }
  }

  /**
   * Runs `tool`, which no caller looks up by name (a flow plan component, docs/workflows.md), as
   * one recorded call: its execute_tool span, result and failure as any call's, without argument
   * checks or a gate, since the calls it makes are each checked and gated.
   */
  async callComposite(tool: Tool, request: CallRequest): Promise<CallResult> {
    throwIfRunAborted(this.options.signal);
    const callId = request.callId ?? `${request.source}_${++this.ids.nested}`;
    const span = this.options.tracer.startSpan(`${SPAN.executeTool} ${tool.name}`, { attributes: this.startAttributes(request, callId, tool) }, request.parent);
    try {
      return await this.execute(span, tool, request);
    } finally {
      span.end();
    }
  }

  private lookup(name: string, source: CallSource): Tool | undefined {
    if (source === 'model' && this.options.modelTools) return this.options.modelTools.get(name);
    const own = this.options.tools.get(name);
    if (own || source === 'model') return own;
    return this.options.fallbackTools?.get(name);
  }

  private refuse(tool: Tool | undefined, request: CallRequest): Refusal | null {
    if (!tool) {
      const offered = request.source === 'model' && this.options.modelTools ? this.options.modelTools : this.options.tools;
      const names = [...offered.keys()].join(', ') || 'none';
      return { outcome: 'error', refused: 'unknown_tool', reason: `Unknown tool "${request.name}". Available tools: ${names}.` };
    }
    const depth = request.depth ?? 0;
    if (depth > MAX_CALL_DEPTH) {
      return {
        outcome: 'error',
        refused: 'call_depth_exceeded',
        reason: `Refused: this call to ${tool.name} is nested ${depth} calls deep, beyond the limit of ${MAX_CALL_DEPTH} (chains and plans calling each other that deep; a build whose composites call themselves is refused at load).`,
      };
    }
    if (request.argsError) {
      return { outcome: 'error', refused: 'invalid_arguments', reason: `Invalid arguments for ${tool.name}: ${request.argsError}.` };
    }
    const args = request.args;
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return { outcome: 'error', refused: 'invalid_arguments', reason: `Invalid arguments for ${tool.name}: expected an object of named arguments.` };
    }
    const problems = userSchemaProblems(tool.parameters, withSchemaDefaults(tool.parameters, args as Record<string, unknown>), 'tool');
    if (problems.length) {
      const details = problems.map((p) => `${formatPath(p.path) || '(arguments)'}: ${p.expected}`).join('; ');
      return { outcome: 'error', refused: 'invalid_arguments', reason: `Invalid arguments for ${tool.name}: ${details}.` };
    }
    return null;
  }

  private recordApproval(tool: string, callId: string, decision: string, parent: Context): void {
    this.options.tracer
      .startSpan(
        `${SPAN.approval} ${tool}`,
        {
          attributes: { [ATTR.toolName]: tool, [ATTR.toolCallId]: callId, [ATTR.approvalDecision]: decision },
        },
        parent,
      )
      .end();
  }

  private startAttributes(request: CallRequest, callId: string, tool: Tool | undefined): Attributes {
    const attributes: Attributes = {
      [ATTR.operationName]: SPAN.executeTool,
      [ATTR.toolName]: request.name,
      [ATTR.toolCallId]: callId,
      [ATTR.toolType]: tool?.kind === 'mcp' ? 'extension' : 'function',
      [ATTR.toolArguments]: safeJson(request.args),
      [ATTR.toolSource]: request.source,
      [ATTR.toolKind]: tool?.kind ?? 'unknown',
      [ATTR.toolReadOnly]: tool?.readOnly ?? false,
      [ATTR.toolSeq]: nextToolSeq(),
    };
    if (request.turn !== undefined) attributes[ATTR.turn] = request.turn;
    if (tool && isAllowListedCommand(tool, request.args, this.options.agent)) attributes[ATTR.toolCommandAllowed] = true;
    return attributes;
  }

  private finishRefused(span: Span, given: Refusal): CallResult {
    // A refusal can quote the model's own tool name or argument keys: it passes prompt security too.
    const refusal = { ...given, reason: String(this.options.security.sanitize(given.reason)) };
    const isError = refusal.outcome === 'error';
    span.setAttributes({
      [EVIDENCE_ATTR.toolOutcome]: refusal.outcome,
      [ATTR.toolIsError]: isError,
      [ATTR.toolRefused]: refusal.refused,
    });
    if (isError) {
      span.setAttribute(ATTR.errorType, refusal.refused);
      span.setStatus({ code: SpanStatusCode.ERROR, message: refusal.reason });
    }
    return {
      result: refusal.reason,
      content: refusal.reason,
      isError: refusal.outcome !== 'pending',
      outcome: refusal.outcome,
      errorType: isError ? refusal.refused : undefined,
      spanId: span.spanContext().spanId,
    };
  }

  private async execute(span: Span, tool: Tool, request: CallRequest): Promise<CallResult> {
    const spanContext = trace.setSpan(request.parent, span);
    const context: ToolContext = {
      workspace: this.options.workspace,
      agent: this.options.agent,
      tracer: this.options.tracer,
      spanContext,
      signal: this.options.signal,
      env: this.options.env,
      processes: this.options.processes,
      depth: request.depth ?? 0,
      // A nested call sits one level below this one, whoever makes it (the depth guard counts it).
      callTool: (nested) => this.call({ name: nested.name, args: nested.args, source: nested.source, parent: nested.parent, depth: (request.depth ?? 0) + 1 }),
    };
    let outcome: ToolOutcome;
    try {
      // The span keeps the arguments as the caller sent them; the tool runs with the schema's defaults filled in.
      outcome = await tool.execute(withSchemaDefaults(tool.parameters, request.args as Record<string, unknown>), context);
    } catch (error) {
      const code = error instanceof AgentcheckError ? error.code.toLowerCase() : 'exception';
      outcome = { result: errorMessage(error), isError: true, errorType: code };
    }
    const result = this.options.security.sanitize(outcome.result);
    // The JSON is made once: the model's text (a string result as it is) and the span's value.
    const json = safeJson(result);
    const content = capText(typeof result === 'string' ? result : json, MAX_RESULT_CHARS);
    // A flow step, plan or chain counts an error-shaped answer as a failed call (docs/workflows.md),
    // so its span says so too and the verdict and checks see the same failure. The model's own
    // calls are judged by the verdict's error tokens instead (docs/verdicts.md).
    const errorShaped = !outcome.isError && request.source !== 'model' && isErrorResult(result);
    const isError = outcome.isError || errorShaped;
    if (outcome.spanAttributes) span.setAttributes(outcome.spanAttributes);
    span.setAttributes({
      [ATTR.toolResult]: spanResultJson(result, MAX_SPAN_RESULT_CHARS, json),
      [EVIDENCE_ATTR.toolOutcome]: isError ? 'error' : 'ok',
      [ATTR.toolIsError]: isError,
    });
    if (isError) {
      span.setAttribute(ATTR.errorType, outcome.errorType ?? 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: (errorShaped ? failureMessage(result) : content).slice(0, 500) });
    }
    return {
      result,
      content,
      isError,
      outcome: isError ? 'error' : 'ok',
      errorType: isError ? (outcome.errorType ?? 'tool_error') : undefined,
      spanId: span.spanContext().spanId,
    };
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
