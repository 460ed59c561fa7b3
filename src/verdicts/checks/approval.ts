import type { Locator } from '../../config/assert-format.js';
import { partialToolReference, toolReference } from '../check-references.js';
import { checkParamsInParts, objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import type { ApprovalDecision } from '../evidence-types.js';
import { toolNameMatcher, validateToolName } from '../tool-name.js';

/** `approval: {tool, decision}`. */
export interface ApprovalParams {
  tool: string;
  /** approve | deny | pending; any decision when left out. */
  decision?: ApprovalDecision;
}

const KIND = 'approval';
const schema = objectParams({ tool: PARAM.tool, decision: { enum: ['approve', 'deny', 'pending'] } }, ['tool']);

/** The tool was put to an approval, answered with `decision` when given. */
export const approval: Check<ApprovalParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    checkParamsInParts<ApprovalParams>(schema, params, locate, [[['tool'], (p) => validateToolName(p.tool, ['tool'], locate)]]);
  },
  references: (params) => toolReference(params),
  partialReferences: (params) => partialToolReference(params),
  run(params, evidence, id) {
    const isTool = toolNameMatcher(params.tool);
    const asked = evidence.approvals.filter((item) => isTool(item.raw_tool));
    const hit = asked.find((item) => params.decision === undefined || item.decision === params.decision);
    const wanted = params.decision ? ` with decision ${params.decision}` : '';
    if (hit) return result(KIND, id, 'pass', `${params.tool} was put to approval: ${hit.decision}`, [hit.span_id]);
    const seen = evidence.approvals.length ? evidence.approvals.map((item) => `${item.tool}: ${item.decision}`).join(', ') : 'no approvals';
    return result(
      KIND,
      id,
      'fail',
      `expected an approval for ${params.tool}${wanted}; saw ${seen}`,
      asked.map((item) => item.span_id),
    );
  },
};
