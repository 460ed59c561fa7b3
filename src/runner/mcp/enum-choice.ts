import { z } from 'zod';
import { describeValue } from '../../config/describe-value.js';
import { closestWord } from '../../config/did-you-mean.js';

/**
 * A zod enum for an MCP tool argument whose refusal is said as a file's enum problem is: what it
 * takes, what it got and the near miss (`expected one of "GET" | ... | "options", got string
 * "Post" (did you mean "POST"?)`; docs/mcp.md, Tools). A missing value keeps zod's `Required`.
 */
export function enumChoice<T extends string>(values: readonly [T, ...T[]]) {
  return z.enum(values as [T, ...T[]], {
    errorMap: (_issue, ctx) => {
      if (ctx.data === undefined) return { message: ctx.defaultError };
      const near = typeof ctx.data === 'string' ? closestWord(ctx.data, values) : undefined;
      const hint = near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`;
      return { message: `expected one of ${values.map((value) => JSON.stringify(value)).join(' | ')}, got ${describeValue(ctx.data)}${hint}` };
    },
  });
}
