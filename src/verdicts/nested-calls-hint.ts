import { times } from './describe.js';
import type { Evidence } from './evidence-types.js';
import { toolNameMatcher } from './tool-name.js';

/**
 * For the reason of a check without `nested: true`, which sees only the calls the verdict counts:
 * `; echo was called once inside a plan or chain (nested: true counts those calls)` for each of
 * `tools` that a chain or plan called, else '' (docs/verdicts.md, Evidence: nested calls).
 */
export function nestedCallsHint(tools: readonly string[], nested: boolean | undefined, evidence: Evidence): string {
  if (nested) return '';
  return [...new Set(tools)]
    .map((tool) => {
      const matches = toolNameMatcher(tool);
      const inside = evidence.calls.filter((call) => call.nested && matches(call.raw_name)).length;
      return inside ? `; ${tool} was called ${times(inside)} inside a plan or chain (nested: true counts those calls)` : '';
    })
    .join('');
}
