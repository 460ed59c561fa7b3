import { didYouMean } from '../config/did-you-mean.js';
import { result, type CheckResult, type CheckStatus } from './checks/check.js';
import type { Evidence } from './evidence-types.js';

/** What a custom check function returns (synchronously or as a promise); `id` and `kind` are added. */
export interface CustomCheckOutcome {
  status: CheckStatus;
  reason: string;
  /** Span ids that decided the result. */
  evidence?: string[];
}

/** A custom check: the same shape as a built-in check, a function of the evidence and its params. */
export type CustomCheckFunction = (evidence: Evidence, params: unknown) => CustomCheckOutcome | Promise<CustomCheckOutcome>;

const STATUSES: readonly string[] = ['pass', 'fail', 'error'];

/**
 * Runs a loaded custom check. The function gets a copy of the evidence, so it cannot change what
 * later checks see. A throw, a rejected promise or a malformed answer is an `error` result with
 * the module's message, never a pass.
 */
export async function runCustomCheck(run: CustomCheckFunction, module: string, params: unknown, evidence: Evidence, id: string): Promise<CheckResult> {
  let outcome: unknown;
  try {
    outcome = await run(structuredClone(evidence), structuredClone(params));
  } catch (error) {
    return result('custom', id, 'error', `${module} threw: ${thrownText(error)}`);
  }
  // Read once, into plain values: a getter or a proxy in the answer runs (and may throw) here, as
  // the check's own code, never later while the row is built.
  let answer: unknown;
  let reading = '';
  try {
    answer = plainAnswer(outcome, (key) => (reading = key));
  } catch (error) {
    return result(
      'custom',
      id,
      'error',
      `${module} threw: ${thrownText(error)} (reading ${reading ? `its answer's ${JSON.stringify(reading)}` : 'its answer'})`,
    );
  }
  const problem = outcomeProblem(answer, evidence);
  if (problem)
    return result('custom', id, 'error', `${module} returned ${problem}; expected {status: "pass" | "fail" | "error", reason: string, evidence?: string[]}`);
  const { status, reason, evidence: ids = [] } = answer as CustomCheckOutcome;
  return result('custom', id, status, reason, ids);
}

/**
 * A copy of a check's answer made of its own enumerable values (an `evidence` list copied item by
 * item), or the answer itself when it is no object; `reading` is told each key before it is read.
 */
function plainAnswer(outcome: unknown, reading: (key: string) => void): unknown {
  if (!outcome || typeof outcome !== 'object' || Array.isArray(outcome)) return outcome;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(outcome)) {
    reading(key);
    const value = (outcome as Record<string, unknown>)[key];
    copy[key] = key === 'evidence' && Array.isArray(value) ? Array.from(value) : value;
  }
  return copy;
}

const KEYS = ['status', 'reason', 'evidence'];

/**
 * What is wrong with a custom check's answer, or null. Checked as strictly as a scenario's keys
 * (docs/custom-checks.md): a misspelt `evidance` or an extra `score` would otherwise vanish, a
 * fail without a reason says nothing, and an id that is no span of the run points nowhere.
 */
function outcomeProblem(outcome: unknown, run: Evidence): string | null {
  if (!outcome || typeof outcome !== 'object' || Array.isArray(outcome)) return describe(outcome);
  const { status, reason, evidence } = outcome as Record<string, unknown>;
  const unknown = Object.keys(outcome).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) return `an unknown key ${JSON.stringify(unknown)}${didYouMean(unknown, KEYS)}`;
  if (typeof status !== 'string' || !STATUSES.includes(status)) return `status ${describe(status)}`;
  if (typeof reason !== 'string') return `reason ${describe(reason)}`;
  if (status === 'fail' && reason.trim() === '') return 'a fail with an empty reason (say what was expected and what was seen)';
  if (evidence !== undefined && (!Array.isArray(evidence) || evidence.some((item) => typeof item !== 'string')))
    return 'evidence that is not a list of span ids';
  const spanIds = new Set(run.spans.map((span) => span.span_id));
  const stray = (evidence as string[] | undefined)?.find((item) => !spanIds.has(item));
  if (stray !== undefined) return `evidence ${JSON.stringify(stray)}, which is no span id of this run`;
  return null;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return JSON.stringify(value)?.slice(0, 60) ?? String(value);
}

/** What a check threw, in words: an Error's message (or its name), any other value as JSON. */
function thrownText(error: unknown): string {
  if (error instanceof Error) return error.message || `${error.name} (no message)`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
