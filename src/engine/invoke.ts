import { assertRevision } from './revision/assert-revision.js';
import type { Tracer } from '@opentelemetry/api';
import type { Checkpointer } from './checkpoint/checkpointer.js';
import type { Locator } from '../config/assert-format.js';
import type { ListedMcpServer } from './mcp/listed-tools.js';
import type { McpServerPool } from './mcp/mcp-server-pool.js';
import type { Message } from './model/message.js';
import type { Model } from './model/model.js';
import type { ApprovalPolicy } from './permissions/approval-policy.js';
import type { ScriptEntry } from './providers/scripted.js';
import type { DeltaRevision } from './revision/delta.js';
import type { AgentBuild, Revision } from './revision/types.js';
import type { SkillOptions } from './skills-delivery.js';
import { checkInvokeOptions } from './check-invoke-options.js';
import { withContentCapture } from './content-capture.js';
import { runTurn } from './run-turn.js';
import type { Turn } from './turn.js';
import type { Workspace } from './workspace/workspace.js';

/** The input of one invoke: the conversation and, for flows, the initial context. */
export interface InvokeInput {
  messages: Message[];
  /** A flow's initial context (docs/workflows.md, Flows). */
  context?: Record<string, unknown>;
}

/** How to run an invoke (or a resume): model, approvals, workspace, tracing, checkpoints. */
export interface InvokeOptions {
  /** The model to use; else one is created from the build's llm (and `script`). */
  model?: Model;
  /** Scripted model entries (a scenario's `model.script`). */
  script?: readonly ScriptEntry[];
  approvals?: ApprovalPolicy;
  /** The run's workspace; default an empty temp folder made on first use and removed after. */
  workspace?: Workspace;
  tracer?: Tracer;
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  conversationId?: string;
  skills?: SkillOptions;
  /** Tags encoded in tool results; default goal and system. */
  encodedTags?: readonly string[];
  /** Receives a checkpoint after each tool round / flow component and when the run pauses. */
  checkpointer?: Checkpointer;
  /** MCP servers shared across runs (a suite's); without it the run starts its own and stops them at its end. */
  mcpServers?: McpServerPool;
  /**
   * The other builds `approvals` answer (the runner's: a scenario's build under each of the
   * suite's variants). Once the run's MCP servers list their tools, a name one of them may have
   * is dropped for this run rather than refused (docs/mcp.md).
   */
  approvalsHeldTo?: readonly AgentBuild[];
  /**
   * Where a problem of `approvals` found once the run's MCP servers list their tools is located
   * (paths relative to `approvals`: `['tools', NAME]`); default `approvals at tools.NAME`. The
   * runner passes a scenario's place in its file.
   */
  approvalsAt?: Locator;
  /**
   * Called once the run's MCP servers have started and listed their tools, before the model's
   * first call, with what each server listed. What it throws (a ConfigError) ends the run as an
   * approval naming no tool does (stop_reason `error`): the runner holds a scenario's tool names
   * to the tools of servers without a `tools` list there (docs/formats.md, "Names a scenario uses").
   */
  onToolsListed?: (listed: readonly ListedMcpServer[]) => void;
  /**
   * Record message content on chat spans (`gen_ai.input.messages`, `gen_ai.output.messages`),
   * secrets scrubbed. Default as testRun's (docs/spans.md): on for a script or a scripted build,
   * off for a live provider or a `model`; OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
   * when set, overrides both.
   */
  captureContent?: boolean;
  /**
   * Base URL of an OTLP/HTTP receiver (`http://127.0.0.1:PORT`) for an external agent's own spans:
   * passed to its process as OTEL_EXPORTER_OTLP_ENDPOINT (docs/external-agents.md).
   */
  otlpEndpoint?: string;
  /**
   * Awaited once per turn after an external agent has answered (or exited), before anything it
   * started is ended: a server agentcheck started for it (`external.http.start`), else the
   * processes it left with the run's tag. The runner waits there for the agent's late spans.
   */
  beforeExternalStop?: () => Promise<void>;
}

/**
 * One batch invoke (docs/engine-loop.md): runs the revision on the input headlessly and
 * returns the whole turn. Failures end the turn with stop_reason `error`; it does not throw.
 */
export async function invoke(revision: Revision | DeltaRevision, input: InvokeInput, options: InvokeOptions = {}): Promise<Turn> {
  // A caller's mistake, not a run that went wrong.
  assertRevision(revision, 'invoke');
  checkInvokeOptions(options, revision.build, { caller: 'invoke', input });
  return runTurn(revision, { kind: 'fresh', input }, withContentCapture(revision, options));
}

/**
 * invoke for a caller that has already held its input and options to invoke's rules: the
 * runner's testRun, which checks each request (and a suite each scenario, once, at load), so a
 * run does not pay for the same checks again on every call.
 */
export async function invokeChecked(revision: DeltaRevision, input: InvokeInput, options: InvokeOptions): Promise<Turn> {
  return runTurn(revision, { kind: 'fresh', input }, options);
}
