import type { Context, Tracer } from '@opentelemetry/api';
import type { ToolKindName } from '../../spans/conventions.js';
import type { AgentSpec } from '../revision/types.js';
import type { RunProcesses } from './process/run-processes.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * What a tool implementation returns. A tool signals failure either by throwing (the invoker
 * turns the throw into an error outcome) or by returning `isError: true`.
 */
export interface ToolOutcome {
  result: unknown;
  isError: boolean;
  /** A short machine-readable error type for spans (`error.type`), e.g. `http_404`, `timeout`. */
  errorType?: string;
  /** Extra attributes for the call's execute_tool span (an http tool's request: docs/spans.md). */
  spanAttributes?: Readonly<Record<string, string | number | boolean>>;
}

/** Who asked for a call: the model, a plan, a chain, or a flow's deterministic step. */
export type CallSource = 'model' | 'plan' | 'chain' | 'flow';

/** A nested call made by a composite tool (plan, chain) through the shared call path. */
export interface NestedCall {
  name: string;
  args: unknown;
  source: CallSource;
  /** Parent span context: the composite's execute_tool (or plan_step / chain_step) span. */
  parent: Context;
}

/** The result of a call through the shared call path (validation, permissions, security, span). */
export interface CallResult {
  /** The result after prompt security (what the model or state sees). */
  result: unknown;
  /** The result as text for the model. */
  content: string;
  isError: boolean;
  /** ok: returned; error: failed or refused as invalid/unknown; denied / pending: gated. */
  outcome: 'ok' | 'error' | 'denied' | 'pending';
  errorType?: string;
  spanId: string;
}

/** Everything a tool implementation may use while it runs. */
export interface ToolContext {
  workspace: Workspace;
  agent: AgentSpec;
  tracer: Tracer;
  /** The context of this call's execute_tool span: parent for any nested spans. */
  spanContext: Context;
  signal?: AbortSignal;
  /** Environment visible to the harness; command tools pass on only their allow list. */
  env: Readonly<Record<string, string | undefined>>;
  /** The run's processes: commands register their process group here, ended with the run. */
  processes?: RunProcesses;
  /** How deep this call nests: 0 for a call the model made, +1 per composite tool around it. */
  depth?: number;
  /**
   * Calls another tool by name through the shared call path (for plans and chains), one level
   * deeper than this call; calls nested too deep are refused as tool errors.
   */
  callTool(call: NestedCall): Promise<CallResult>;
}

/** A tool ready to run: definition for the model plus an implementation. */
export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  readOnly: boolean;
  permission?: 'allow' | 'ask' | 'deny';
  /** Implementation kind for spans (`agentcheck.tool.kind`, docs/spans.md): one of TOOL_KIND_NAMES. */
  kind: ToolKindName;
  /** For built-ins, which one (a tool named `shell` may be the built-in run_command). */
  builtin?: string;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}
