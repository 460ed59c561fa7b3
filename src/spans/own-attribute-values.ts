import { ATTR, EVIDENCE_ATTR, SPAN, STOP_REASONS, TOOL_KIND_NAMES } from './conventions.js';
import { GENAI_OPERATION_NAMES } from './genai-semconv-keys.js';

/**
 * What agentcheck writes in one of its own attributes (docs/spans.md, Attributes): a boolean, a
 * whole number from `min` (an index from 0, a count of calls or attempts from 1), or one of a few
 * words. `others`: words other tracers write there too (the GenAI conventions'), beside names of
 * their own, so only a near miss of a word is refused.
 */
export type OwnAttributeValue = { type: 'boolean' } | { type: 'number'; min: 0 | 1 } | { words: readonly string[]; others?: readonly string[] };

const BOOLEAN = { type: 'boolean' } as const;
const FROM_0 = { type: 'number', min: 0 } as const;
const FROM_1 = { type: 'number', min: 1 } as const;

/** The operation names agentcheck's own spans carry (the `evaluate` root of a judge's grading too). */
const OWN_OPERATIONS: readonly string[] = [SPAN.invokeAgent, SPAN.chat, SPAN.executeTool, SPAN.invokeWorkflow, SPAN.evaluate];

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
  [ATTR.turn]: FROM_0,
  // Numbered from 1 (tool-caller.ts nextToolSeq); a resumed run's calls go on after the earlier ones'.
  [ATTR.toolSeq]: FROM_1,
  [ATTR.planItems]: FROM_0,
  // The first execution of a chain step is attempt 1, a retry 2, 3, ...
  [ATTR.chainAttempt]: FROM_1,
  [ATTR.externalArrival]: FROM_0,
  [EVIDENCE_ATTR.toolOutcome]: { words: ['ok', 'error', 'denied', 'pending'] },
  [ATTR.toolSource]: { words: ['model', 'plan', 'chain', 'flow'] },
  [ATTR.toolKind]: { words: TOOL_KIND_NAMES },
  [ATTR.toolRefused]: { words: ['unknown_tool', 'invalid_arguments', 'call_depth_exceeded', 'denied', 'pending', 'approval_required'] },
  // An answer may be given as reject (counted as deny).
  [ATTR.approvalDecision]: { words: ['approve', 'deny', 'reject', 'pending'] },
  [ATTR.humanInputDecision]: { words: ['approve', 'deny', 'reject', 'response', 'pending'] },
  [ATTR.planBranch]: { words: ['if', 'else'] },
  [ATTR.stopReason]: { words: STOP_REASONS },
  // An external agent's own GenAI spans are kept as they are: the conventions let them name operations of their own.
  [ATTR.operationName]: { words: OWN_OPERATIONS, others: GENAI_OPERATION_NAMES.filter((name) => !OWN_OPERATIONS.includes(name)) },
};

/** The rule for `key`, or undefined for an attribute of free text (or another tracer's). */
export function ownAttributeRule(key: string): OwnAttributeValue | undefined {
  // By own key: `constructor` names no attribute of agentcheck's.
  return Object.hasOwn(OWN_ATTRIBUTE_VALUES, key) ? OWN_ATTRIBUTE_VALUES[key] : undefined;
}

/** Whether `value` is one agentcheck writes under `rule` (or, for `others`, another tracer may). */
export function isListedValue(rule: OwnAttributeValue, value: unknown): boolean {
  if (!('words' in rule)) return rule.type === 'boolean' ? typeof value === 'boolean' : isWholeNumber(value, rule.min);
  return typeof value === 'string' && (rule.words.includes(value) || (rule.others ?? []).includes(value));
}

/** A number agentcheck's counts and indexes can be: whole, from `min`. */
export function isWholeNumber(value: unknown, min: number): value is number {
  return Number.isInteger(value) && (value as number) >= min;
}

/** What agentcheck writes there, for a message: `is a boolean`, `is one of ok, error, denied, pending`. */
export function describeOwnValue(rule: OwnAttributeValue): string {
  if (!('words' in rule)) return rule.type === 'boolean' ? 'is a boolean' : `is a whole number from ${rule.min}`;
  return `is one of ${rule.words.join(', ')}`;
}
