import { z } from 'zod';
import { describeValue } from '../../config/describe-value.js';
import { MAX_TIMER_MS } from '../../config/timer-limit.js';

/**
 * A whole number of ms from `min` to MAX_TIMER_MS, the longest delay Node's timers hold: every
 * `delay_ms` and `timeout_ms` an MCP tool takes, listed to the client with its bounds and refused
 * in the words a file's value gets (`expected a number <= 2147483647, got number 2147483648`),
 * never run as a 1 ms timer (docs/security.md, Hostile files).
 */
export function timerMsField(min: 0 | 1) {
  return z
    .number({
      errorMap: (issue, ctx) => {
        if (issue.code === z.ZodIssueCode.too_big) return { message: `expected a number <= ${MAX_TIMER_MS}, got ${describeValue(ctx.data)}` };
        if (issue.code === z.ZodIssueCode.too_small) return { message: `expected a number >= ${min}, got ${describeValue(ctx.data)}` };
        // Not a number, not whole, or not finite (`1e400` parses as Infinity).
        if (ctx.data !== undefined) return { message: `expected integer, got ${describeValue(ctx.data)}` };
        return { message: ctx.defaultError };
      },
    })
    .int()
    .min(min)
    .max(MAX_TIMER_MS);
}
