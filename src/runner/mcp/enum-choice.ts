import { z } from 'zod';
import { describeValue } from '../../config/describe-value.js';
import { enumNearMiss } from '../../config/did-you-mean.js';
import { enumMismatch } from '../../config/schema-problem.js';

/**
 * A zod enum for an MCP tool argument whose refusal is said as a file's enum problem is: what it
 * takes, what it got and the near miss (`expected one of "GET" | ... | "options", got string
 * "Post" (did you mean "POST"?)`; docs/mcp.md, Tools). A missing value keeps zod's `Required`.
 */
export function enumChoice<T extends string>(values: readonly [T, ...T[]]) {
  return z.enum(values as [T, ...T[]], {
    errorMap: (_issue, ctx) => {
      if (ctx.data === undefined) return { message: ctx.defaultError };
      return { message: `${enumMismatch(values, describeValue(ctx.data))}${enumNearMiss(ctx.data, values)}` };
    },
  });
}
