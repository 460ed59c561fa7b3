import { ATTR, EVIDENCE_ATTR } from './conventions.js';

/** What agentcheck writes in one of its own attributes: a boolean, a number, or one of a few words (docs/spans.md, Attributes). */
export type OwnAttributeValue = { type: 'boolean' } | { type: 'number' } | { words: readonly string[] };

const BOOLEAN = { type: 'boolean' } as const;
const NUMBER = { type: 'number' } as const;

/**
 * The attributes agentcheck writes with a fixed type or set of words: a condition comparing one
 * with another value (`agentcheck.tool.is_error is "true"`, `agentcheck.tool.outcome is "errror"`)
 * could never match, so a `count: {max: 0}` check would pass whatever the run did.
 */
export const OWN_ATTRIBUTE_VALUES: Readonly<Record<string, OwnAttributeValue>> = {
  [ATTR.toolIsError]: BOOLEAN,
  [ATTR.toolReadOnly]: BOOLEAN,
  [ATTR.toolCommandAllowed]: BOOLEAN,
  [ATTR.externalExported]: BOOLEAN,
  [ATTR.turn]: NUMBER,
  [ATTR.toolSeq]: NUMBER,
  [ATTR.planItems]: NUMBER,
  [ATTR.chainAttempt]: NUMBER,
  [ATTR.externalArrival]: NUMBER,
  [EVIDENCE_ATTR.toolOutcome]: { words: ['ok', 'error', 'denied', 'pending'] },
  [ATTR.toolSource]: { words: ['model', 'plan', 'chain', 'flow'] },
  [ATTR.toolRefused]: { words: ['unknown_tool', 'invalid_arguments', 'call_depth_exceeded', 'denied', 'pending', 'approval_required'] },
  // An answer may be given as reject (counted as deny).
  [ATTR.approvalDecision]: { words: ['approve', 'deny', 'reject', 'pending'] },
  [ATTR.humanInputDecision]: { words: ['approve', 'deny', 'reject', 'response', 'pending'] },
  [ATTR.planBranch]: { words: ['if', 'else'] },
};

/** Why `value` can never be what agentcheck writes in `key` (`is a boolean, got string "true"`), or null. */
export function ownValueProblem(key: string, value: unknown): string | null {
  const rule = OWN_ATTRIBUTE_VALUES[key];
  if (!rule) return null;
  if ('words' in rule) return typeof value === 'string' && rule.words.includes(value) ? null : `is one of ${rule.words.join(', ')}`;
  return typeof value === rule.type ? null : `is a ${rule.type}`;
}
