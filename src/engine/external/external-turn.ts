import { dirname } from 'node:path';
import type { Context, Span, Tracer } from '@opentelemetry/api';
import { secretEnvValues } from '../../config/redact.js';
import { ATTR } from '../../spans/conventions.js';
import type { InvokeInput, InvokeOptions } from '../invoke.js';
import { describeError } from '../loop/agent-loop.js';
import type { Message } from '../model/message.js';
import { createModel } from '../providers/index.js';
import { genAiProviderName } from '../providers/registry.js';
import { DEFAULT_EXTERNAL_TIMEOUT_MS, DEFAULT_MAX_TURNS, resolveConfig } from '../resolve-config.js';
import type { DeltaRevision } from '../revision/delta.js';
import type { ExternalSpec, Revision } from '../revision/types.js';
import type { RunProcesses } from '../tools/process/run-processes.js';
import type { Turn } from '../turn.js';
import type { Workspace } from '../workspace/workspace.js';
import { agentEnv } from './agent-env.js';
import { ExternalAgentError, type AgentOutput } from './agent-output.js';
import { runCommandEngine } from './command-engine.js';
import { externalSkillsNotDelivered } from './external-skills.js';
import { runHttpEngine } from './http-engine.js';
import { ModelBridge } from './model-bridge.js';
import { runAborted } from '../run-aborted.js';

/**
 * Scripted-model errors that are the scenario's, not the agent's to handle: the run errors with
 * them whatever the agent did next (docs/external-agents.md).
 */
const SCRIPT_ERRORS: ReadonlySet<string> = new Set(['SCRIPT_EXHAUSTED', 'SCRIPT_MISSING']);

/** Where an external turn runs: the run's tracer, root span, workspace and processes. */
export interface ExternalPlace {
  tracer: Tracer;
  root: Span;
  parent: Context;
  workspace: Workspace;
  processes: RunProcesses;
}

/** An external turn's outcome, before the root span closes. */
export type ExternalTurnBody = Omit<Turn, 'trace_id'>;

/**
 * Runs an external agent for one turn (docs/external-agents.md): starts the model bridge, runs
 * the command or calls the http engine, and builds the Turn from what the bridge saw and the
 * agent's answer. Failures end the turn with stop_reason `error`; it does not throw.
 */
export async function externalTurn(
  revision: Revision | DeltaRevision,
  external: ExternalSpec,
  input: InvokeInput,
  options: InvokeOptions,
  place: ExternalPlace,
): Promise<ExternalTurnBody> {
  const kind = external.command ? 'command' : 'http';
  const env = options.env ?? process.env;
  const model = options.model ?? createModel(external.llm, { script: options.script, env });
  const resolved = resolveConfig(revision, {
    model,
    tools: [],
    skillsDelivery: options.skills?.delivery,
    skillsNotDelivered: externalSkillsNotDelivered(revision, options.skills),
  });
  // The same root as an engine agent's (docs/spans.md): no skill is delivered, so the list is empty.
  place.root.setAttributes({
    [ATTR.providerName]: genAiProviderName(resolved.provider),
    [ATTR.resolvedConfig]: JSON.stringify(resolved),
    [ATTR.skillsDelivered]: resolved.skills,
  });
  // The agent's own time limit closes the bridge when it ends the agent: an agent that ignores
  // SIGTERM and asks again gets no answer (docs/external-agents.md).
  const timeoutMs = external.timeout_ms ?? DEFAULT_EXTERNAL_TIMEOUT_MS;
  const agentCut = new AbortController();
  const cutTimer = setTimeout(() => agentCut.abort(new Error(`the external agent's timeout_ms (${timeoutMs} ms) passed`)), timeoutMs);
  cutTimer.unref();
  const bridgeSignal = options.signal ? AbortSignal.any([options.signal, agentCut.signal]) : agentCut.signal;
  const bridge = await ModelBridge.start({
    model,
    tracer: place.tracer,
    parent: place.parent,
    maxTurns: external.max_turns ?? DEFAULT_MAX_TURNS,
    parameters: external.llm?.parameters ?? {},
    contentCapture: options.captureContent ? { secrets: secretEnvValues(env) } : undefined,
    signal: bridgeSignal,
  });
  let answer: AgentOutput | undefined;
  let failure: { type: string; message: string } | undefined;
  // The wait for late spans comes before anything the agent started is ended: a server of
  // http.start (the engine waits before stopping it), else the processes it left (ended when the
  // run ends, after this turn), which may be exporting them (docs/external-agents.md, Late spans).
  let waited = false;
  const waitForSpans = options.beforeExternalStop;
  const beforeStop = waitForSpans
    ? async () => {
        waited = true;
        await waitForSpans();
      }
    : undefined;
  try {
    const engine = kind === 'command' ? runCommandEngine : runHttpEngine;
    answer = await engine({
      external,
      input,
      deltas: 'deltas' in revision ? (revision.deltas ?? []) : [],
      builds: { ran: revision.build, base: ('base' in revision ? revision.base : undefined) ?? revision.build },
      env: agentEnv(env, external.env, { bridgeUrl: bridge.url, root: place.root.spanContext(), otlpEndpoint: options.otlpEndpoint }),
      sourceEnv: env,
      cwd: await place.workspace.root(),
      buildDir: dirname(revision.source),
      timeoutMs,
      signal: options.signal,
      processes: place.processes,
      beforeStop,
    });
  } catch (error) {
    // An interrupt (or the run's own limit) is the cause, not the agent it ended.
    failure = describeError(options.signal?.aborted ? runAborted(options.signal) : error);
    // Past its time limit the bridge refuses the agent's calls: an agent that exits on that refusal
    // before it is stopped ran out of time all the same.
    if (!options.signal?.aborted && agentCut.signal.aborted && error instanceof ExternalAgentError && error.code === 'EXTERNAL_AGENT_FAILED') {
      failure = {
        type: 'EXTERNAL_AGENT_TIMEOUT',
        message: `the external agent's timeout_ms (${timeoutMs} ms) passed; it ended on the refusal of its model call before it was stopped: ${error.message}`,
      };
    }
  } finally {
    clearTimeout(cutTimer);
    const unanswered = await bridge.close();
    if (unanswered.length) place.root.setAttribute(ATTR.unansweredToolCalls, unanswered);
  }
  // The engine's own trace id is otherwise kept only in memory (for spans_url): the root shows it (docs/spans.md).
  if (answer?.trace_id) place.root.setAttribute(ATTR.externalTraceId, answer.trace_id);
  if (beforeStop && !waited && !options.signal?.aborted) await beforeStop();
  // The harness's own limits refused the call the agent then failed on: they, not the agent, are
  // what ended the run (an exhausted or missing script errors as such; max_turns is a stop, as in the engine).
  const scriptError = bridge.modelError && SCRIPT_ERRORS.has(bridge.modelError.type) ? bridge.modelError : undefined;
  if (failure?.type === 'EXTERNAL_AGENT_FAILED') {
    if (scriptError) {
      failure = {
        type: scriptError.type,
        message: `${scriptError.message} (the model bridge answered it with an error; the agent then failed: ${failure.message})`,
      };
    } else if (bridge.maxTurnsReached) {
      failure = undefined;
    }
  }
  const messages: Message[] = [...input.messages, ...bridge.ledger.transcript];
  const output = answer?.output ?? '';
  const last = [...messages].reverse().find((message) => message.role === 'assistant');
  // The agent's answer closes the transcript unless it is the model's last text as it was.
  if (answer && (!last || last.content !== output || last.tool_calls?.length)) messages.push({ role: 'assistant', content: output });
  const body: ExternalTurnBody = {
    messages,
    output,
    stop_reason: bridge.maxTurnsReached ? 'max_turns' : failure ? 'error' : 'end_turn',
    usage: bridge.usage,
    external: answer?.trace_id ? { kind, trace_id: answer.trace_id } : { kind },
  };
  // An exhausted or missing script is never a pass (docs/formats.md), even when the agent carried
  // on past the error the bridge answered it with.
  if (!failure && scriptError) {
    failure = {
      type: scriptError.type,
      message: `${scriptError.message} (the model bridge answered it with an error; the agent went on and answered)`,
    };
    body.stop_reason = 'error';
  }
  if (failure) {
    // A model failure the agent gave up on says more than the agent's own exit.
    body.error =
      bridge.modelError && failure.type !== bridge.modelError.type && failure.type !== 'RUN_ABORTED'
        ? { type: failure.type, message: `${failure.message} (the model bridge answered an error: ${bridge.modelError.type}: ${bridge.modelError.message})` }
        : failure;
  }
  return body;
}
