import type { ErrorObject } from 'ajv';
import { enumNearMiss, nearKey } from './did-you-mean.js';
import { allowedKeys, describeSchemaError, type SchemaProblem, valueAt } from './schema-problem.js';

/**
 * Ajv's full error list (`allErrors`) as one readable problem per independent problem of the
 * value (docs/cli.md, validate): of an anyOf/oneOf, only the branch that fits best speaks; a
 * missing required key that an unknown key at the same object misspells is not reported (the
 * unknown key says "did you mean"); several errors about one value keep the first.
 */
export function reduceSchemaErrors(errors: readonly ErrorObject[], root: unknown): SchemaProblem[] {
  const kept = withoutMisspeltRequired(bestBranches(errors));
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const error of kept) {
    const problem = withEnumSuggestion(describeSchemaError(error, root), error, root);
    const key = JSON.stringify(problem.subject);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/**
 * `expected one of "a" | "b", got "c"` gains `(did you mean "b"?)` when the value is a near miss.
 * Only here, for files and requests: the errors a model's tool call gets back stay as they are
 * (their text is part of the recorded conversation a cassette replays).
 */
function withEnumSuggestion(problem: SchemaProblem, error: ErrorObject, root: unknown): SchemaProblem {
  if (error.keyword !== 'enum') return problem;
  const hint = enumNearMiss(valueAt(root, problem.path), (error.params as { allowedValues?: unknown[] }).allowedValues ?? []);
  return hint === '' ? problem : { ...problem, expected: `${problem.expected}${hint}` };
}

/** Errors inside an anyOf/oneOf are kept for the one branch that fits best; the combinator's own error goes. */
function bestBranches(errors: readonly ErrorObject[]): ErrorObject[] {
  let list = [...errors];
  // Outer combinators first: an inner one inside a dropped branch goes with it.
  const combinators = list.filter(isCombinator).sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const combinator of combinators) {
    if (!list.includes(combinator)) continue;
    const prefix = `${combinator.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const error of list) {
      if (!error.schemaPath.startsWith(prefix)) continue;
      const branch = error.schemaPath.slice(prefix.length).split('/')[0];
      branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    const total = Array.isArray(combinator.schema) ? combinator.schema.length : branches.size;
    if (branches.size < total) {
      list = withoutRefBranchMisfits(list, combinator);
      if (!branches.size) continue;
    }
    // A oneOf that matched several branches has no branch errors: its own error says so.
    if (!branches.size) continue;
    const best = bestBranch([...branches.values()], combinator.instancePath);
    list = list.filter((error) => (error.schemaPath.startsWith(prefix) ? best.includes(error) : error !== combinator));
  }
  return list;
}

/**
 * A branch that is a `$ref` (the meta-schema's `items: anyOf [{$ref: "#"}, {$ref: schemaArray}]`)
 * reports under the referenced schema's path, not the combinator's, so its errors cannot be told
 * apart by path: they are the ones Ajv emitted just before the combinator, about its value or
 * inside it. When some are inside the value, the value has the type of the branch that looked
 * inside: the other branches' "expected array" about the value itself is dropped, with the
 * combinator's own error (one mistake, one problem).
 */
function withoutRefBranchMisfits(list: ErrorObject[], combinator: ErrorObject): ErrorObject[] {
  const at = combinator.instancePath;
  const within = (error: ErrorObject) => error.instancePath === at || error.instancePath.startsWith(`${at}/`);
  let start = list.indexOf(combinator);
  while (start > 0 && within(list[start - 1])) start--;
  const branchErrors = list.slice(start, list.indexOf(combinator));
  if (!branchErrors.some((error) => error.instancePath !== at)) return list;
  const dropped = new Set([combinator, ...branchErrors.filter((error) => misfits([error], at))]);
  return list.filter((error) => !dropped.has(error));
}

function isCombinator(error: ErrorObject): boolean {
  return error.keyword === 'anyOf' || error.keyword === 'oneOf';
}

/** Whether errors say the value itself has another type (or value) than their branch takes. */
function misfits(errors: readonly ErrorObject[], instancePath: string): boolean {
  return errors.some((error) => error.instancePath === instancePath && ['type', 'enum', 'const'].includes(error.keyword));
}

/**
 * The branch whose errors say most about the value: one the value has the type of (no type,
 * enum or const mismatch of the value itself), then the one with fewest errors, then the first.
 */
function bestBranch(branches: readonly ErrorObject[][], instancePath: string): ErrorObject[] {
  const misfit = (branch: ErrorObject[]) => misfits(branch, instancePath);
  let best = branches[0];
  for (const branch of branches.slice(1)) {
    const better = misfit(best) !== misfit(branch) ? misfit(best) : branch.length < best.length;
    if (better) best = branch;
  }
  return best;
}

/** Drops `missing required key "messages"` when the same object has the unknown key `mesages` that misspells it. */
function withoutMisspeltRequired(errors: readonly ErrorObject[]): ErrorObject[] {
  const misspelt = new Set<string>();
  for (const error of errors) {
    if (error.keyword !== 'additionalProperties') continue;
    const near = nearKey(String((error.params as { additionalProperty?: unknown }).additionalProperty), allowedKeys(error));
    if (near !== undefined) misspelt.add(`${error.instancePath}\u0000${near}`);
  }
  return errors.filter(
    (error) =>
      error.keyword !== 'required' || !misspelt.has(`${error.instancePath}\u0000${String((error.params as { missingProperty?: unknown }).missingProperty)}`),
  );
}
