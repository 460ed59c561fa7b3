import type { Locator } from '../config/assert-format.js';
import { result, type Check, type CheckResult } from './checks/check.js';
// checks/index.ts re-exports this file's functions, so CHECKS is read only inside functions
// (never at module load): the import cycle is then harmless.
import { CHECKS, type CheckKind } from './checks/index.js';
import type { Evidence } from './evidence-types.js';
import { runCustomCheck, type CustomCheckFunction } from './run-custom-check.js';

/** One item of `expect.checks`: a one-key map `{kind: params}`. */
export type CheckSpec = Record<string, unknown>;

/**
 * Validates a scenario's `checks` list, throwing a located ConfigError for the first bad item
 * (not a one-key map, an unknown kind, or bad parameters).
 */
export function validateChecks(list: unknown, locate: Locator): asserts list is CheckSpec[] {
  const kinds = Object.keys(CHECKS).join(', ');
  if (!Array.isArray(list)) throw locate([], 'expected a list of checks, each a one-key map such as {tool_called: {tool: x}}');
  list.forEach((item, index) => {
    if (!item || typeof item !== 'object' || Array.isArray(item) || Object.keys(item).length !== 1) {
      throw locate([index], `expected a one-key map {<kind>: <parameters>}; kinds: ${kinds}`);
    }
    const kind = Object.keys(item)[0];
    const check = checkOf(kind);
    if (!check) throw locate([index, kind], `unknown check kind "${kind}"; expected one of: ${kinds}`, true);
    check.validate((item as CheckSpec)[kind], (path, expected, atKey) => locate([index, kind, ...path], expected, atKey));
  });
}

/**
 * Runs validated checks against the evidence, in order; ids are `kind#index` (index in the
 * list). On incomplete evidence every check is an error: nothing can be concluded from part
 * of a run. A check that throws is reported as an error, not a crash.
 */
export function runChecks(list: readonly CheckSpec[], evidence: Evidence): CheckResult[] {
  return list.map((item, index) => {
    const kind = Object.keys(item)[0];
    const id = `${kind}#${index}`;
    const check = checkOf(kind);
    if (!check) return result(kind, id, 'error', `unknown check kind "${kind}"`);
    if (evidence.incomplete) return result(kind, id, 'error', `the evidence is incomplete: ${evidence.incomplete}`);
    try {
      return check.run(item[kind] as never, evidence, id);
    } catch (error) {
      return result(kind, id, 'error', `the check could not run: ${(error as Error).message}`);
    }
  });
}

function checkOf(kind: string): Check<never> | undefined {
  return Object.hasOwn(CHECKS, kind) ? (CHECKS[kind as CheckKind] as Check<never>) : undefined;
}

/**
 * runChecks, with `custom` checks run by the functions the runner loaded (by index in the
 * list); those may be async. A custom check without a loaded function is an error.
 */
export async function runChecksWithCustom(list: readonly CheckSpec[], evidence: Evidence, custom: ReadonlyMap<number, CustomCheckFunction>): Promise<CheckResult[]> {
  const results = runChecks(list, evidence);
  await Promise.all(list.map(async (item, index) => {
    const run = custom.get(index);
    if (!('custom' in item) || !run || evidence.incomplete) return;
    const { module, params } = item.custom as { module: string; params?: unknown };
    results[index] = await runCustomCheck(run, module, params ?? {}, evidence, results[index].id);
  }));
  return results;
}
