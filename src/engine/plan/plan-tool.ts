import { RunError } from '../../config/errors.js';
import type { ToolSpecOf } from '../revision/types.js';
import type { Tool } from '../tools/tool.js';
import { runPlan } from './run-plan.js';
import { toolHeader } from '../tools/kinds/tool-header.js';

/**
 * A `plan` tool (docs/workflows.md, STEP plans): runs its STEP plan with the call's arguments in the top-level
 * scope and returns `{variables, log}`. A plan that fails (undefined variable, failed nested
 * call, max_iterations) is an error outcome whose message names the step path.
 */
export function createPlanTool(spec: ToolSpecOf<'plan'>): Tool {
  const plan = spec.plan;
  return {
    ...toolHeader(spec, 'plan'),
    async execute(args, ctx) {
      try {
        const result = await runPlan(plan, args, { callTool: (call) => ctx.callTool(call), tracer: ctx.tracer, parent: ctx.spanContext });
        return { result, isError: false };
      } catch (error) {
        if (error instanceof RunError) return { result: error.message, isError: true, errorType: error.code.toLowerCase() };
        throw error;
      }
    },
  };
}
