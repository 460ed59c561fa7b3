import { callError, returnedWithoutError } from './call-error.js';
import type { ErrorToken } from './error-tokens.js';
import type { ApprovalDecision, ApprovalRecord, ToolCall } from './evidence-types.js';

/** One row of the test_run digest (docs/verdicts.md, The test_run verdict). */
export interface ToolDigest {
  name: string;
  called: number;
  /** Calls that returned a result without error. */
  returned: number;
  /** Calls that failed or whose result holds an error token. */
  errors: number;
}

/** Per-tool counts in first-call order, over the calls the digest sees (model and flow-step calls). */
export function toolDigest(calls: readonly ToolCall[], tokens: readonly ErrorToken[]): ToolDigest[] {
  const rows = new Map<string, ToolDigest>();
  for (const call of calls) {
    let row = rows.get(call.name);
    if (!row) rows.set(call.name, (row = { name: call.name, called: 0, returned: 0, errors: 0 }));
    row.called++;
    if (callError(call, tokens)) row.errors++;
    else if (returnedWithoutError(call, tokens)) row.returned++;
  }
  return [...rows.values()];
}

/** The approvals asked during the run, in order. */
export function approvalDigest(approvals: readonly ApprovalRecord[]): Array<{ tool: string; decision: ApprovalDecision }> {
  return approvals.map(({ tool, decision }) => ({ tool, decision }));
}
