import { ATTR } from '../../spans/conventions.js';
import type { TestRunRecord } from '../test-run-types.js';

/**
 * Whether a resumed run ended with an error before anything ran: no model call and no tool call
 * in its own spans (its MCP servers did not start, a name they do not list was refused, or its
 * time limit or an interrupt cut it off first, as while slow servers start), so the gated call
 * its decision answered never ran. Such a run stays paused: the answer may be given again once
 * the cause is fixed (docs/cli.md, resume).
 */
export function resumedNothing(record: Pick<TestRunRecord, 'result' | 'spans'>): boolean {
  if (record.result.stop_reason !== 'error') return false;
  return !record.spans.some((span) => {
    const operation = span.attributes[ATTR.operationName];
    return operation === 'chat' || operation === 'execute_tool';
  });
}
