import { randomBytes, randomUUID } from 'node:crypto';
import { isSpanContextValid, ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags, type Span } from '@opentelemetry/api';
import { ATTR, EVIDENCE_ATTR, SPAN, usageDetailAttributes } from '../spans/conventions.js';
import { genAiProviderName } from './providers/registry.js';
import { CheckpointWriter } from './checkpoint/checkpoint-writer.js';
import type { AgentCheckpoint, Checkpoint, FlowCheckpoint } from './checkpoint/checkpointer.js';
import { toolAnswer, type ResumeDecision } from './checkpoint/resume-decision.js';
import { flowStateEvidence, initialFlowRun } from './flow/flow-state.js';
import type { InvokeInput, InvokeOptions } from './invoke.js';
import { describeError, runAgentLoop, type LoopState } from './loop/agent-loop.js';
import type { Message } from './model/message.js';
import { openMcpSession, type McpSession } from './mcp/mcp-toolset.js';
import { checkRunApprovals } from './permissions/run-approvals.js';
import { prepareRun, type PreparedRun } from './prepare-run.js';
import type { DeltaRevision } from './revision/delta.js';
import type { FlowSpec, Revision } from './revision/types.js';
import type { Turn } from './turn.js';
import { RunProcesses } from './tools/process/run-processes.js';
import { FolderWorkspace } from './workspace/folder-workspace.js';
import { collectConfigErrors, RunError, throwConfigErrors, type ConfigError } from '../config/errors.js';
import { buildAgent } from './revision/build-agent.js';

/** Where a turn starts: fresh input (invoke) or a checkpoint and an answer (resume). */
export type TurnStart = { kind: 'fresh'; input: InvokeInput } | { kind: 'resume'; checkpoint: Checkpoint; decision?: ResumeDecision };

/** The turn's outcome before the root span is closed; `flowState` is set for flows. */
type TurnBody = Omit<Turn, 'trace_id'> & { flowState?: string };

/**
 * Runs one turn under an `invoke_agent {agent}` root span: prepares the run, then the agent
 * loop or the flow, from the start given. Failures end the turn with stop_reason `error`.
 */
export async function runTurn(revision: Revision | DeltaRevision, start: TurnStart, options: InvokeOptions): Promise<Turn> {
  const tracer = options.tracer ?? trace.getTracer('agentcheck');
  const agent = buildAgent(revision.build);
  const root = identified(
    tracer.startSpan(
      `${SPAN.invokeAgent} ${agent.name}`,
      {
        attributes: {
          [ATTR.operationName]: SPAN.invokeAgent,
          [ATTR.agentName]: agent.name,
          [ATTR.conversationId]: options.conversationId ?? randomUUID(),
          [ATTR.runKind]: 'test',
        },
      },
      ROOT_CONTEXT,
    ),
  );
  if (start.kind === 'resume') root.setAttribute(ATTR.resumedFrom, start.checkpoint.id);
  const parent = trace.setSpan(ROOT_CONTEXT, root);
  const traceId = root.spanContext().traceId;
  const ownsWorkspace = !options.workspace;
  const workspace = options.workspace ?? FolderWorkspace.temp();
  const writer = new CheckpointWriter(options.checkpointer, {
    traceId,
    revisionHash: revision.hash,
    deltaHash: 'deltaHash' in revision ? revision.deltaHash : null,
  });
  let body: TurnBody;
  let mcp: McpSession | undefined;
  const processes = new RunProcesses();
  try {
    // A workspace made from a folder that is gone fails the run now, not each file tool it calls.
    await workspace.check?.();
    const external = revision.build.external;
    if (external) {
      if (start.kind === 'resume') throw new RunError('RESUME_UNSUPPORTED', 'an external agent cannot be resumed from a checkpoint');
      // Flows and external agents load with the first build that has one (start-up).
      const { externalTurn } = await import('./external/external-turn.js');
      body = await externalTurn(revision, external, start.input, options, { tracer, root, parent, workspace, processes });
    } else {
      const modelCallsDone = start.kind === 'resume' ? start.checkpoint.modelCalls : 0;
      mcp = await openMcpSession(revision, options.mcpServers, options.env ?? process.env, options.signal);
      const approvals = checkListedNames(revision, options, mcp.listed);
      const runOptions = approvals === options.approvals ? options : { ...options, approvals };
      const prepared = prepareRun(revision, runOptions, { tracer, parent, workspace, modelCallsDone, extraTools: mcp.tools, processes });
      root.setAttributes({
        [ATTR.providerName]: genAiProviderName(prepared.resolved.provider),
        [ATTR.resolvedConfig]: JSON.stringify(prepared.resolved),
        [ATTR.skillsDelivered]: prepared.resolved.skills,
      });
      const flow = revision.build.flow;
      body = flow ? await flowTurn(revision, flow, prepared, start, runOptions, writer) : await agentTurn(prepared, start, writer);
    }
  } catch (error) {
    body = { messages: startMessages(start), output: '', stop_reason: 'error', usage: { input_tokens: 0, output_tokens: 0 }, error: describeError(error) };
  } finally {
    // Nothing the run started outlives it: background and detached children are ended here,
    // at once (SIGKILL right after SIGTERM) when the run was aborted, so its row is made within
    // the suite's grace after the abort even when a child ignores SIGTERM (docs/security.md).
    const leftovers = await processes.reap(options.signal?.aborted ? 0 : undefined).catch(() => []);
    if (leftovers.length)
      root.setAttribute(
        ATTR.processesKilled,
        leftovers.map((left) => `${left.pid} ${left.command}`),
      );
    if (ownsWorkspace) await workspace.dispose().catch(() => undefined);
    await mcp?.close().catch(() => undefined);
  }
  return finish(root, body, traceId);
}

/**
 * Names left for the servers' tools, checked now, before the model's first call: the approvals'
 * and the caller's (onToolsListed: a scenario's checks and script) together, every problem of
 * both in one error, as the load reports them (docs/formats.md, "Names a scenario uses").
 * Returns the approvals keyed by the names the gates ask with.
 */
function checkListedNames(revision: Revision | DeltaRevision, options: InvokeOptions, listed: McpSession['listed']): InvokeOptions['approvals'] {
  const problems: ConfigError[] = [];
  let approvals = options.approvals;
  collectConfigErrors(problems, () => {
    approvals = checkRunApprovals(options.approvals, revision.build, listed, options.approvalsHeldTo, options.approvalsAt);
  });
  // Called also when this build starts no server: another variant's build may have one.
  collectConfigErrors(problems, () => options.onToolsListed?.(listed));
  throwConfigErrors(problems);
  return approvals;
}

/** Records the turn's outcome on the root span and ends it. */
function finish(root: Span, body: TurnBody, traceId: string): Turn {
  const { flowState, ...rest } = body;
  const turn: Turn = { ...rest, trace_id: traceId };
  if (flowState !== undefined) root.setAttribute(EVIDENCE_ATTR.flowState, flowState);
  root.setAttributes({
    [ATTR.stopReason]: turn.stop_reason,
    [EVIDENCE_ATTR.output]: turn.output,
    [ATTR.inputTokens]: turn.usage.input_tokens,
    [ATTR.outputTokens]: turn.usage.output_tokens,
    ...usageDetailAttributes(turn.usage),
  });
  if (turn.error) {
    root.setAttribute(ATTR.errorType, turn.error.type);
    root.setStatus({ code: SpanStatusCode.ERROR, message: turn.error.message });
  }
  root.end();
  return turn;
}

/** A build without a flow: one agent loop, checkpointed after each tool round and when it pauses. */
async function agentTurn(prepared: PreparedRun, start: TurnStart, writer: CheckpointWriter): Promise<TurnBody> {
  const checkpoint = start.kind === 'resume' ? (start.checkpoint as AgentCheckpoint) : undefined;
  const initial: LoopState = checkpoint
    ? structuredClone(checkpoint.state)
    : { messages: [...(start as { input: InvokeInput }).input.messages], turns: 0, usage: { input_tokens: 0, output_tokens: 0 } };
  const decision = start.kind === 'resume' ? toolAnswer(start.decision, checkpoint?.pending?.tool ?? '') : undefined;
  // Without a checkpointer the loop skips the callback (and the copy of its state) entirely.
  const onCheckpoint = writer.active ? (state: LoopState) => writer.agent(state) : undefined;
  const result = await runAgentLoop({ ...prepared.loopSetup, onCheckpoint }, initial, decision);
  if (result.stop_reason === 'paused') await writer.agent(result.state, result.pending);
  const body: TurnBody = { messages: result.state.messages, output: result.output, stop_reason: result.stop_reason, usage: result.state.usage };
  if (result.pending) body.pending_interaction = result.pending;
  if (result.error) body.error = result.error;
  return body;
}

/** A build with a flow (docs/workflows.md, Flows); the final flow state becomes `agentcheck.flow.state`. */
async function flowTurn(
  revision: Revision,
  flow: FlowSpec,
  prepared: PreparedRun,
  start: TurnStart,
  options: InvokeOptions,
  writer: CheckpointWriter,
): Promise<TurnBody> {
  const startState =
    start.kind === 'resume' ? (start.checkpoint as FlowCheckpoint).state : initialFlowRun(flow.entry_point, start.input.messages, start.input.context);
  const { runFlow } = await import('./flow/run-flow.js');
  const result = await runFlow({
    env: {
      flow,
      loopSetup: prepared.loopSetup,
      tools: prepared.tools,
      fallbackTools: prepared.fallbackTools,
      approvals: options.approvals,
      agentInstructions: prepared.instructions,
      skillsPrompt: prepared.skillsPrompt,
      checkpoint: (run) => writer.flow(run),
    },
    start: startState,
    decision: start.kind === 'resume' ? start.decision : undefined,
    flowName: flow.name ?? revision.build.id,
  });
  const body: TurnBody = {
    messages: result.messages,
    output: result.output,
    stop_reason: result.stop_reason,
    usage: result.usage,
    flowState: JSON.stringify(flowStateEvidence(result.flowState)),
  };
  if (result.pending) body.pending_interaction = result.pending;
  if (result.error) body.error = result.error;
  return body;
}

function startMessages(start: TurnStart): Message[] {
  if (start.kind === 'fresh') return [...start.input.messages];
  return structuredClone(start.checkpoint.state.messages);
}

/**
 * The root span, or, when no tracer provider is installed (the no-op API hands out all-zero
 * ids), a non-recording stand-in with a fresh random trace id: every run needs its own id,
 * since paused runs and checkpoints are looked up by it.
 */
function identified(root: Span): Span {
  if (isSpanContextValid(root.spanContext())) return root;
  return trace.wrapSpanContext({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), traceFlags: TraceFlags.NONE });
}
