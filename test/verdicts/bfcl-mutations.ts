/**
 * Wrong answers for the BFCL conformance test: each takes the ground-truth calls and breaks one
 * thing, returning the broken calls and the name a failure reason must mention (or null when
 * the entry offers nothing to break that way).
 */
import type { BfclExpectedCall } from '../../scripts/bfcl/convert-entry.js';

/** A call as the model would make it. */
export interface ModelCall {
  name: string;
  args: Record<string, unknown>;
}

/** Broken calls plus the argument or function the failing check's reason must name. */
export interface Mutation {
  calls: ModelCall[];
  names: string;
}

/** Breaks the ground truth one way; null when the entry has nothing to break that way. */
export type Mutator = (expected: readonly BfclExpectedCall[], tools: readonly string[]) => Mutation | null;

const UNACCEPTABLE = 'zz not an acceptable value';

/** The ground-truth calls, as the scripted model makes them. */
export function groundTruthCalls(expected: readonly BfclExpectedCall[]): ModelCall[] {
  return expected.map(({ tool, call }) => ({ name: tool, args: structuredClone(call) }));
}

/** One argument of the first call changed to a value outside its acceptable list. */
export const changeArgument: Mutator = (expected) => {
  const calls = groundTruthCalls(expected);
  for (const [name, value] of Object.entries(calls[0].args)) {
    const options = (expected[0].args[name] as { $one_of?: unknown[] })?.$one_of ?? [];
    const changed = outsideOptions(value, options);
    if (changed === undefined) continue;
    calls[0].args[name] = changed;
    return { calls, names: name };
  }
  return null;
};

/** A required argument (its acceptable values do not include "") of the first call left out. */
export const dropRequired: Mutator = (expected) => {
  const calls = groundTruthCalls(expected);
  for (const name of Object.keys(calls[0].args)) {
    const options = (expected[0].args[name] as { $one_of?: unknown[] })?.$one_of ?? [];
    if (options.includes('')) continue;
    delete calls[0].args[name];
    return { calls, names: name };
  }
  return null;
};

/** An argument the function does not take, added to the first call. */
export const addUnexpected: Mutator = (expected) => {
  const calls = groundTruthCalls(expected);
  calls[0].args.zz_unexpected_argument = 1;
  return { calls, names: 'zz_unexpected_argument' };
};

/** The first call made to another function (one the entry offers, else an unknown one). */
export const wrongFunction: Mutator = (expected, tools) => {
  const calls = groundTruthCalls(expected);
  const wanted = new Set(expected.map((call) => call.tool));
  calls[0].name = tools.find((tool) => !wanted.has(tool)) ?? 'zz_wrong_function';
  return { calls, names: expected[0].tool };
};

/** A value of the same kind that no acceptable option can equal, or undefined when there is none. */
function outsideOptions(value: unknown, options: readonly unknown[]): unknown {
  if (typeof value === 'string' || value === null) return UNACCEPTABLE;
  if (typeof value === 'number') {
    let candidate = value + 1_000_003;
    while (options.includes(candidate)) candidate += 7;
    return candidate;
  }
  if (typeof value === 'boolean') return options.includes(!value) ? undefined : !value;
  if (Array.isArray(value)) return [...value, UNACCEPTABLE];
  if (value && typeof value === 'object') return { ...value, zz_unexpected_key: UNACCEPTABLE };
  return undefined;
}
