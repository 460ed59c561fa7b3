import type { Locator } from '../../config/assert-format.js';
import type { CheckReference } from '../check-references.js';
import type { Evidence } from '../evidence-types.js';

/** A check's status: fail = the run did not do what was expected; error = the check could not decide. */
export type CheckStatus = 'pass' | 'fail' | 'error';

/** The result of one check (docs/verdicts.md); `id` is `kind#index`. */
export interface CheckResult {
  id: string;
  kind: string;
  status: CheckStatus;
  /** What was expected and what was seen. */
  reason: string;
  /** Span ids that decided the result. */
  evidence: string[];
}

/**
 * One check kind: `validate` runs when a scenario is loaded (throws a located ConfigError),
 * `run` is a pure function of the evidence.
 */
export interface Check<P = unknown> {
  readonly kind: string;
  validate(params: unknown, locate: Locator): void;
  /** What the (validated) parameters name in the build: tools, argument names, the flow state. */
  references?(params: P): CheckReference[];
  /**
   * What the well-formed parts of parameters that did not validate name (a tool name, args names,
   * each tool_sequence call on its own): one part's problem hides no other part's unknown tool.
   */
  partialReferences?(params: unknown): CheckReference[];
  run(params: P, evidence: Evidence, id: string): CheckResult;
}

/** Builds a result; keeps check files to their logic. */
export function result(kind: string, id: string, status: CheckStatus, reason: string, evidence: readonly string[] = []): CheckResult {
  return { id, kind, status, reason, evidence: [...evidence] };
}
