import type { Locator } from '../config/assert-format.js';
import type { PathSegments } from '../config/source.js';
import { quoteCapped } from '../config/cap-text.js';
import { didYouMean } from '../config/did-you-mean.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../config/errors.js';
import type { CheckReference } from './check-references.js';
import { result, type Check, type CheckResult } from './checks/check.js';
// checks/index.ts re-exports this file's functions, so CHECKS is read only inside functions
// (never at module load): the import cycle is then harmless.
import { CHECKS, type CheckKind } from './checks/index.js';
import type { Evidence } from './evidence-types.js';
import { runCustomCheck, type CustomCheckFunction } from './run-custom-check.js';

/** One item of `expect.checks`: a one-key map `{kind: params}`. */
export type CheckSpec = Record<string, unknown>;

/**
 * Validates a scenario's `checks` list: every bad item (not a one-key map, an unknown kind, or
 * bad parameters) is reported, as one located ConfigError or a ConfigErrors holding them all.
 */
export function validateChecks(list: unknown, locate: Locator): asserts list is CheckSpec[] {
  if (!Array.isArray(list)) throw locate([], 'expected a list of checks, each a one-key map such as {tool_called: {tool: x}}');
  const problems: ConfigError[] = [];
  list.forEach((item, index) => collectConfigErrors(problems, () => validateCheck(item, index, locate)));
  throwConfigErrors(problems);
}

/** Validates item `index` of a checks list (`locate` takes paths relative to the list). */
export function validateCheck(item: unknown, index: number, locate: Locator): asserts item is CheckSpec {
  if (!item || typeof item !== 'object' || Array.isArray(item) || Object.keys(item).length !== 1) {
    throw locate([index], `expected a one-key map {<kind>: <parameters>}; kinds: ${Object.keys(CHECKS).join(', ')}`);
  }
  const kind = Object.keys(item)[0];
  const check = checkOf(kind);
  if (!check)
    throw locate(
      [index, kind],
      `unknown check kind ${quoteCapped(kind)}; expected one of: ${Object.keys(CHECKS).join(', ')}${didYouMean(kind, Object.keys(CHECKS))}`,
      true,
    );
  check.validate((item as CheckSpec)[kind], (path, expected, atKey) => locate([index, kind, ...path], expected, atKey));
}

/**
 * What validated checks name in the build, with paths relative to the checks list; `indexes`
 * limits it to those items (the ones that validated).
 */
export function checkReferences(list: readonly CheckSpec[], indexes?: readonly number[]): CheckReference[] {
  const checked = indexes ?? list.map((_item, index) => index);
  return checked.flatMap((index) => {
    const item = list[index];
    const kind = Object.keys(item)[0];
    return prefixed(checkOf(kind)?.references?.(item[kind] as never) ?? [], index, kind);
  });
}

/**
 * What the items of a checks list that did not validate (all but `validIndexes`) still name in
 * their well-formed parts (Check.partialReferences), with paths relative to the list.
 */
export function partialCheckReferences(list: readonly unknown[], validIndexes: readonly number[]): CheckReference[] {
  const valid = new Set(validIndexes);
  return list.flatMap((item, index) => {
    if (valid.has(index) || !item || typeof item !== 'object' || Array.isArray(item) || Object.keys(item).length !== 1) return [];
    const kind = Object.keys(item)[0];
    return prefixed(checkOf(kind)?.partialReferences?.((item as Record<string, unknown>)[kind]) ?? [], index, kind);
  });
}

/** References with their paths made relative to the checks list (item `index`, of `kind`). */
function prefixed(references: readonly CheckReference[], index: number, kind: string): CheckReference[] {
  const prefix = (at: PathSegments): PathSegments => [index, kind, ...at];
  return references.map((reference): CheckReference => {
    if (reference.kind !== 'tool') return { ...reference, at: prefix(reference.at) };
    const moved: CheckReference = { ...reference, at: prefix(reference.at) };
    if (reference.args) moved.args = { ...reference.args, at: prefix(reference.args.at) };
    if (reference.request) moved.request = prefix(reference.request);
    return moved;
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
    if (!check) return result(kind, id, 'error', `unknown check kind ${quoteCapped(kind)}`);
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
export async function runChecksWithCustom(
  list: readonly CheckSpec[],
  evidence: Evidence,
  custom: ReadonlyMap<number, CustomCheckFunction>,
): Promise<CheckResult[]> {
  const results = runChecks(list, evidence);
  await Promise.all(
    list.map(async (item, index) => {
      const run = custom.get(index);
      if (!('custom' in item) || !run || evidence.incomplete) return;
      const { module, params } = item.custom as { module: string; params?: unknown };
      results[index] = await runCustomCheck(run, module, params ?? {}, evidence, results[index].id);
    }),
  );
  return results;
}
