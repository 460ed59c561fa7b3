import type { Context, Span, Tracer } from '@opentelemetry/api';
import { RunError } from '../../config/errors.js';
import { ATTR, SPAN } from '../../spans/conventions.js';
import type { PlanSpec, PlanToolCall } from '../revision/types.js';
import { interpolate } from '../template/interpolate.js';
import { failureMessage, isFailedCall } from '../tools/failed-call.js';
import type { CallResult, NestedCall } from '../tools/tool.js';
import { withToolStepSpan } from '../with-span.js';
import { resolveConstants } from './plan-constants.js';
import { PlanScope } from './plan-scope.js';
import { isTruthy } from './truthy.js';

/** Tool calls a plan may make before it stops with an error (docs/workflows.md, STEP plans). */
export const DEFAULT_MAX_ITERATIONS = 10_000;

/** What a plan needs from its host (a plan tool or a flow's plan component). */
export interface PlanRuntime {
  /** The shared call path (validation, permissions, prompt security, execute_tool span). */
  callTool(call: NestedCall): Promise<CallResult>;
  tracer: Tracer;
  /** Span context the plan_step spans hang under. */
  parent: Context;
}

/** A plan's result: the top-level scope after the run and the text of each echo, in order. */
export interface PlanResult {
  variables: Record<string, unknown>;
  log: string[];
}

/**
 * Runs a STEP plan (docs/workflows.md, STEP plans). `inputs` (the tool's arguments or the component's inputs)
 * and then the constants form the top-level scope that `steps` share. Throws RunError naming
 * the variable and step path for undefined variables, non-array items, failed tool calls and
 * max_iterations.
 */
export async function runPlan(plan: PlanSpec, inputs: Readonly<Record<string, unknown>>, runtime: PlanRuntime): Promise<PlanResult> {
  const top = new PlanScope();
  for (const [name, value] of Object.entries(inputs)) top.bind(name, value);
  resolveConstants(plan.constants ?? {}, top);
  const run = new PlanRun(runtime, plan.max_iterations ?? DEFAULT_MAX_ITERATIONS);
  for (const [index, step] of plan.steps.entries()) {
    await run.block(step.tools, top, `steps[${index}].tools`, runtime.parent);
  }
  return { variables: top.own(), log: run.log };
}

/** The mutable part of one plan execution: the echo log and the tool-call budget. */
class PlanRun {
  readonly log: string[] = [];
  private calls = 0;

  constructor(
    private readonly runtime: PlanRuntime,
    private readonly maxIterations: number,
  ) {}

  async block(calls: readonly PlanToolCall[], scope: PlanScope, at: string, parent: Context): Promise<void> {
    for (const [index, call] of calls.entries()) await this.step(call, scope, `${at}[${index}]`, parent);
  }

  private step(call: PlanToolCall, scope: PlanScope, path: string, parent: Context): Promise<void> {
    const attributes = { [ATTR.toolName]: call.name, [ATTR.planStepPath]: path };
    return withToolStepSpan(this.runtime.tracer, `${SPAN.planStep} ${call.name}`, attributes, parent, async (context, span) => {
      if (call.name === 'for_each') return this.forEach(call, scope, path, context, span);
      if (call.name === 'if_else') return this.ifElse(call, scope, path, context, span);
      return this.callTool(call, scope, path, context);
    });
  }

  private async callTool(call: PlanToolCall, scope: PlanScope, path: string, parent: Context): Promise<void> {
    if (++this.calls > this.maxIterations) {
      throw new RunError('PLAN_MAX_ITERATIONS', `plan stopped at ${path}: it would make more than max_iterations (${this.maxIterations}) tool calls`);
    }
    const args = interpolate(call.arguments ?? {}, scope.lookup, `${path}.arguments`);
    const result = await this.runtime.callTool({ name: call.name, args, source: 'plan', parent });
    if (result.errorType === 'approval_required') {
      throw new RunError(
        'PLAN_TOOL_FAILED',
        `plan step ${path}: tool "${call.name}" needs approval, which a plan cannot wait for; allow the tool or answer it in the approval policy`,
      );
    }
    // Failed as a chain step or flow step counts it: an error-shaped answer (`{ok: false, error: x}`) too.
    if (isFailedCall(result)) throw new RunError('PLAN_TOOL_FAILED', `plan step ${path}: tool "${call.name}" failed: ${failureMessage(result.result)}`);
    if (call.name === 'echo') this.log.push(typeof result.result === 'string' ? result.result : result.content);
    if (call.returns !== undefined) scope.bind(call.returns, result.result);
  }

  private async forEach(call: PlanToolCall, scope: PlanScope, path: string, parent: Context, span: Span): Promise<void> {
    const items = interpolate(call.items, scope.lookup, `${path}.items`);
    if (!Array.isArray(items)) {
      throw new RunError('PLAN_NOT_AN_ARRAY', `for_each at ${path}: "items" (${JSON.stringify(call.items)}) must be an array, got ${describe(items)}`);
    }
    span.setAttribute(ATTR.planItems, items.length);
    const each = call.each_item as NonNullable<PlanToolCall['each_item']>;
    for (const item of items) {
      // A fresh scope per item: bindings of one iteration never leak into the next.
      const inner = scope.child();
      inner.bind(each.item_name, item);
      await this.block(each.tools, inner, `${path}.each_item.tools`, parent);
    }
  }

  private async ifElse(call: PlanToolCall, scope: PlanScope, path: string, parent: Context, span: Span): Promise<void> {
    const branch = isTruthy(interpolate(call.condition, scope.lookup, `${path}.condition`)) ? 'if' : 'else';
    span.setAttribute(ATTR.planBranch, branch);
    const block = call[branch];
    if (block) await this.block(block.tools, scope.child(), `${path}.${branch}.tools`, parent);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
