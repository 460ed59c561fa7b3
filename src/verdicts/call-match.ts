import type { ArgsMode } from './args/args-mode.js';
import { matchArgs } from './args/args-mode.js';
import { formatMismatch } from './args/mismatch.js';
import type { ToolCall } from './evidence-types.js';
import { hasServerPrefix } from '../spans/conventions.js';
import { toolNameMatcher } from './tool-name.js';

/** An expected call as checks write it: a tool name (or /regex/), optional args and mode. */
export interface ExpectedCall {
  tool: string;
  args?: Record<string, unknown>;
  args_mode?: ArgsMode;
}

/**
 * Why `call` is not the expected call, or null when it is: a different tool
 * ("is send_email"), else the first differing argument.
 */
export function callMismatch(expected: ExpectedCall, call: ToolCall, defaultMode: ArgsMode): string | null {
  // Against a server-prefixed expected name, the call's server is what differs: show it.
  if (!toolNameMatcher(expected.tool)(call.raw_name)) return `is ${hasServerPrefix(expected.tool) ? call.raw_name : call.name}, not ${expected.tool}`;
  const mismatch = matchArgs(expected.args, call.args, expected.args_mode ?? defaultMode);
  return mismatch ? formatMismatch(mismatch) : null;
}

/** True when the call is to the expected tool (arguments not considered). */
export function sameTool(expected: ExpectedCall, call: ToolCall): boolean {
  return toolNameMatcher(expected.tool)(call.raw_name);
}

/**
 * For a failure reason: the first call to the expected tool and why its arguments differ,
 * as "; closest: create_refund call 2: argument ...", or "" when no call is to that tool.
 */
export function closestMismatch(expected: ExpectedCall, calls: readonly ToolCall[], defaultMode: ArgsMode, all: readonly ToolCall[] = calls): string {
  for (const call of calls) {
    if (!sameTool(expected, call)) continue;
    const why = callMismatch(expected, call, defaultMode);
    if (why) return `; closest: ${call.name} call ${all.indexOf(call) + 1}: ${why}`;
  }
  return '';
}
