import { randomUUID } from 'node:crypto';
import type { Context, Tracer } from '@opentelemetry/api';
import { RunError } from '../../config/errors.js';
import { setOwn } from '../../config/own-key.js';
import { ATTR, SPAN } from '../../spans/conventions.js';
import type { ChainSpec, ChainStepSpec } from '../revision/types.js';
import { throwIfRunAborted } from '../run-aborted.js';
import { interpolate, resolveTemplatePath, type TemplateLookup } from '../template/interpolate.js';
import type { CallResult, NestedCall } from '../tools/tool.js';
import { markFailed, withToolStepSpan } from '../with-span.js';
import { failureMessage, isFailedCall } from '../tools/failed-call.js';
import type { ChainResult, ChainStepRecord } from './chain-result.js';
import { CHAIN_END, ChainTargets, stepLabel } from './chain-targets.js';
import { failureAction } from './failure-policy.js';

/** Step executions (retries included) after which a chain stops (docs/workflows.md, Tool chains). */
export const DEFAULT_MAX_STEPS = 100;
/** Retries of a step with `action: retry` and no `max_retries`. */
export const DEFAULT_MAX_RETRIES = 3;

/** What a chain needs from its host tool. */
export interface ChainRuntime {
  callTool(call: NestedCall): Promise<CallResult>;
  tracer: Tracer;
  /** Span context the chain_step spans hang under. */
  parent: Context;
  /** Waits between retries (ending early when `signal` aborts); injected so tests never wait. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The run's signal: the chain stops between steps once it aborts (docs/engine-loop.md). */
  signal?: AbortSignal;
}

/** How one step execution ended. */
interface StepOutcome {
  record: ChainStepRecord;
  ok: boolean;
  /** Set when the chain cannot go on whatever on_failure says (a template error). */
  fatal?: string;
}

/**
 * Runs a composite tool chain (docs/workflows.md, Tool chains) over a state that starts as the tool's
 * arguments. Never throws for a step's failure: the result says what happened, and
 * `success` is false when the chain stopped on a failure or its last step failed, unless a
 * `next: end` ended it (that means "handled, stop here", so success).
 */
export async function runChain(chain: ChainSpec, chainName: string, args: Readonly<Record<string, unknown>>, runtime: ChainRuntime): Promise<ChainResult> {
  const { steps } = chain;
  const maxSteps = chain.max_steps ?? DEFAULT_MAX_STEPS;
  const targets = new ChainTargets(steps);
  const state: Record<string, unknown> = { ...args };
  // Retry counters live here, per step index, never in the state the caller sees.
  const retries = new Map<number, number>();
  const results: ChainStepRecord[] = [];
  let succeeded = 0;
  let failed = 0;
  let lastOk = true;
  // `next: end` ends the chain successfully wherever it is written, also after a handled failure.
  let endedByNext = false;
  let stopped: string | undefined;
  let index = 0;

  while (index < steps.length) {
    const step = steps[index];
    const label = stepLabel(step, index);
    if (results.length >= maxSteps) {
      stopped = `chain stopped before ${label}: it reached max_steps (${maxSteps} step executions); check for a "next" that loops`;
      break;
    }
    const outcome = await executeStep(step, index, (retries.get(index) ?? 0) + 1, state, runtime);
    results.push(outcome.record);
    lastOk = outcome.ok;
    if (outcome.ok) {
      succeeded++;
      retries.delete(index);
      stopped = mapOutputs(step, label, outcome.record.result, state);
      if (stopped) break;
      const next = step.on_success?.next;
      endedByNext = next === CHAIN_END;
      index = next !== undefined ? targets.resolve(next, label) : index + 1;
      continue;
    }
    failed++;
    if (outcome.fatal) {
      stopped = outcome.fatal;
      break;
    }
    const policy = step.on_failure ?? {};
    const action = failureAction(policy);
    if (action === 'stop') {
      stopped = `step ${label} (${step.tool}) failed: ${outcome.record.failure}`;
      break;
    }
    if (action === 'retry') {
      const used = retries.get(index) ?? 0;
      const max = policy.max_retries ?? DEFAULT_MAX_RETRIES;
      if (used < max) {
        retries.set(index, used + 1);
        const wait = (policy.backoff_ms ?? 0) * 2 ** used;
        if (wait > 0) await runtime.sleep(wait, runtime.signal);
        throwIfRunAborted(runtime.signal);
        continue;
      }
      retries.delete(index);
      if (!policy.continue_on_max_retries) {
        stopped = `step ${label} (${step.tool}) failed after ${max} ${max === 1 ? 'retry' : 'retries'}: ${outcome.record.failure}`;
        break;
      }
    }
    endedByNext = policy.next === CHAIN_END;
    index = policy.next !== undefined ? targets.resolve(policy.next, label) : index + 1;
  }

  const result: ChainResult = {
    success: stopped === undefined && (lastOk || endedByNext),
    chain_id: randomUUID(),
    chain_name: chain.name ?? chainName,
    steps_executed: results.length,
    steps_succeeded: succeeded,
    steps_failed: failed,
    results,
    final_state: state,
    completed_at: new Date().toISOString(),
  };
  if (!result.success) result.error = stopped ?? `the last step, ${results[results.length - 1]?.step_id}, failed: ${results[results.length - 1]?.failure}`;
  return result;
}

/** One execution of one step inside a `chain_step {tool}` span. */
async function executeStep(step: ChainStepSpec, index: number, attempt: number, state: Record<string, unknown>, runtime: ChainRuntime): Promise<StepOutcome> {
  const label = stepLabel(step, index);
  const record: ChainStepRecord = { step_id: label, tool: step.tool, attempt, status: 'failed' };
  const attributes = { [ATTR.toolName]: step.tool, [ATTR.chainStepId]: label, [ATTR.chainAttempt]: attempt };
  return withToolStepSpan(runtime.tracer, `${SPAN.chainStep} ${step.tool}`, attributes, runtime.parent, async (context, span) => {
    let args: unknown;
    try {
      args = interpolate(step.inputs ?? {}, stateLookup(state), `${label}.inputs`);
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      record.failure = error.message;
      markFailed(span, error.code.toLowerCase(), error.message);
      return { record, ok: false, fatal: `step ${label} (${step.tool}) could not start: ${error.message}` };
    }
    const call = await runtime.callTool({ name: step.tool, args, source: 'chain', parent: context });
    if (isFailedCall(call)) {
      record.failure = failureMessage(call.result);
      markFailed(span, call.errorType ?? 'step_failed', record.failure);
      return { record, ok: false };
    }
    record.status = 'success';
    record.result = call.result;
    return { record, ok: true };
  });
}

/** `{{ state.x }}` and `{{ x }}` both read the chain state (`state` always means the whole state). */
function stateLookup(state: Record<string, unknown>): TemplateLookup {
  return (name) => {
    if (name === 'state') return { found: true, value: state };
    return Object.hasOwn(state, name) ? { found: true, value: state[name] } : { found: false };
  };
}

/**
 * Copies result fields into the state: `map_outputs: {<field path in the result>: <state key>}`,
 * `$` meaning the whole result. Returns why the chain must stop when a field is missing.
 */
function mapOutputs(step: ChainStepSpec, label: string, result: unknown, state: Record<string, unknown>): string | undefined {
  for (const [source, target] of Object.entries(step.on_success?.map_outputs ?? {})) {
    // setOwn: a `__proto__` target is a state key like any other, never the state's prototype.
    if (source === '$') {
      setOwn(state, target, result);
      continue;
    }
    try {
      const value = resolveTemplatePath(
        source,
        (name) =>
          result !== null && typeof result === 'object' && Object.hasOwn(result, name)
            ? { found: true, value: (result as Record<string, unknown>)[name] }
            : { found: false },
        `${label}.on_success.map_outputs`,
      );
      setOwn(state, target, value);
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      return `step ${label} (${step.tool}): map_outputs names "${source}", which the result does not have (use "$" for the whole result)`;
    }
  }
  return undefined;
}
