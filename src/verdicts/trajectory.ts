import type { ArgsMode } from './args/args-mode.js';
import { maxMatching } from './bipartite.js';
import { callMismatch, closestMismatch, type ExpectedCall } from './call-match.js';
import { plural, summarizeCalls, wasOrWere } from './describe.js';
import type { ToolCall } from './evidence-types.js';

/** Trajectory modes (docs/verdicts.md, after LangChain agentevals, plus in_order). */
export const SEQUENCE_MODES = ['strict', 'unordered', 'subset', 'superset', 'in_order'] as const;
/** A trajectory mode name. */
export type SequenceMode = (typeof SEQUENCE_MODES)[number];

/** Whether the actual calls fit the expected ones, why, and which spans decided it. */
export interface TrajectoryOutcome {
  ok: boolean;
  reason: string;
  evidence: string[];
}

/** Compares the actual calls with the expected trajectory under `mode`. */
export function compareTrajectory(mode: SequenceMode, expected: readonly ExpectedCall[], actual: readonly ToolCall[], argsMode: ArgsMode): TrajectoryOutcome {
  const fits: Fits = (e, a) => callMismatch(expected[e], actual[a], argsMode) === null;
  const saw = `saw ${summarizeCalls(actual)}`;
  const ids = actual.map((call) => call.span_id);
  const label = (e: number) => `expected call ${e + 1} (${expected[e].tool})`;
  if (mode === 'in_order') return compareInOrder({ expected, actual, argsMode, fits, saw, ids });
  if (mode === 'strict') return compareStrict({ expected, actual, argsMode, fits, saw, ids });

  const { leftToRight, rightToLeft } = maxMatching(expected.length, actual.length, fits);
  const unmatchedExpected = leftToRight.indexOf(-1);
  const unmatchedActual = rightToLeft.indexOf(-1);
  const spare = actual.filter((_, a) => rightToLeft[a] === -1);
  if (mode !== 'subset' && unmatchedExpected !== -1) {
    const closest = closestMismatch(expected[unmatchedExpected], spare, argsMode, actual);
    return fail(`${label(unmatchedExpected)} matched no ${mode === 'unordered' ? 'remaining ' : ''}call${closest}; ${saw}`, ids);
  }
  if (mode !== 'superset' && unmatchedActual !== -1) {
    const call = actual[unmatchedActual];
    const what = mode === 'unordered' ? `exactly ${plural(expected.length, 'call')} in any order` : `every call among the ${expected.length} expected`;
    return fail(`expected ${what}; call ${unmatchedActual + 1} (${call.name}) was not expected; ${saw}`, ids);
  }
  if (mode === 'unordered') return pass(`the ${plural(expected.length, 'expected call')} ${wasOrWere(expected.length)} made in any order`, ids);
  const how = mode === 'subset' ? `${wasOrWere(actual.length)}${actual.length === 1 ? '' : ' all'} among the expected` : 'included every expected call';
  return pass(`the ${plural(actual.length, 'call')} ${how}; ${saw}`, ids);
}

/** What the ordered modes compare: the calls, how they fit, and the pieces of every reason. */
interface OrderedComparison {
  expected: readonly ExpectedCall[];
  actual: readonly ToolCall[];
  argsMode: ArgsMode;
  fits: Fits;
  /** `saw lookup x1, refund x1`, closing every reason. */
  saw: string;
  /** The span ids of the actual calls: the evidence. */
  ids: string[];
}

/** Same calls in the same order; calls of one model response (same turn) may come in any order. */
function compareStrict({ expected, actual, argsMode, fits, saw, ids }: OrderedComparison): TrajectoryOutcome {
  let position = 0;
  for (const { first, calls: group } of responseGroups(actual)) {
    if (position + group.length > expected.length) {
      const extra = first + Math.max(0, expected.length - position);
      return fail(`expected ${plural(expected.length, 'call')}; call ${extra + 1} (${actual[extra].name}) was not expected; ${saw}`, ids);
    }
    const taken = fittingPrefix(fits, position, group.length, first, group.length);
    if (taken < group.length) {
      const e = position + taken;
      const at = group.length === 1 ? `call ${first + 1}` : `calls ${first + 1}-${first + group.length} (one model response)`;
      const why = group.length === 1 ? `: ${callMismatch(expected[e], group[0], argsMode)}` : closestMismatch(expected[e], group, argsMode, actual);
      return fail(`expected call ${e + 1} (${expected[e].tool}) at ${at}${why}; ${saw}`, ids);
    }
    position += group.length;
  }
  if (position < expected.length) {
    return fail(`expected call ${position + 1} (${expected[position].tool}) but the run made only ${plural(actual.length, 'call')}; ${saw}`, ids);
  }
  return pass(`the ${plural(expected.length, 'call')} matched in order; ${saw}`, ids);
}

/** The expected calls appear as a subsequence; calls of one model response (same turn) may come in any order. */
function compareInOrder({ expected, actual, argsMode, fits, saw, ids }: OrderedComparison): TrajectoryOutcome {
  let position = 0;
  // Each response takes as many of the next expected calls as it can: whatever another choice
  // would leave for the later responses, this leaves a tail of it, so it never fails a list
  // that some choice passes.
  for (const { first, calls: group } of responseGroups(actual)) {
    if (position === expected.length) break;
    position += fittingPrefix(fits, position, Math.min(group.length, expected.length - position), first, group.length);
  }
  if (position < expected.length) {
    const after = position ? ` after expected call ${position}` : '';
    return fail(
      `expected call ${position + 1} (${expected[position].tool}) did not appear in order${after}${closestMismatch(expected[position], actual, argsMode)}; ${saw}`,
      ids,
    );
  }
  return pass(`the ${plural(expected.length, 'expected call')} appeared in order; ${saw}`, ids);
}

type Fits = (e: number, a: number) => boolean;

/**
 * How many of the expected calls from `position` on (at most `count`) the `size` calls of one
 * response starting at `first` can take, paired in any order. maxMatching adds expected calls
 * one at a time and keeps the matching maximum, so the first it leaves unmatched ends the
 * longest prefix that fits.
 */
function fittingPrefix(fits: Fits, position: number, count: number, first: number, size: number): number {
  const { leftToRight } = maxMatching(count, size, (e, a) => fits(position + e, first + a));
  const missing = leftToRight.indexOf(-1);
  return missing === -1 ? count : missing;
}

/** Consecutive calls from the same model response (same turn) form one group; other calls stand alone. */
function responseGroups(actual: readonly ToolCall[]): { first: number; calls: ToolCall[] }[] {
  const groups: { first: number; calls: ToolCall[] }[] = [];
  actual.forEach((call, index) => {
    const group = groups[groups.length - 1];
    const head = group?.calls[0];
    if (head && call.turn !== null && call.source === 'model' && head.turn === call.turn && head.source === 'model') group.calls.push(call);
    else groups.push({ first: index, calls: [call] });
  });
  return groups;
}

function pass(reason: string, evidence: string[]): TrajectoryOutcome {
  return { ok: true, reason, evidence };
}

function fail(reason: string, evidence: string[]): TrajectoryOutcome {
  return { ok: false, reason, evidence };
}
