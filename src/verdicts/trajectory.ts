import type { ArgsMode } from './args/args-mode.js';
import { maxMatching } from './bipartite.js';
import { callMismatch, closestMismatch, type ExpectedCall } from './call-match.js';
import { plural, summarizeCalls } from './describe.js';
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
  const fits = (e: number, a: number) => callMismatch(expected[e], actual[a], argsMode) === null;
  const saw = `saw ${summarizeCalls(actual)}`;
  const ids = actual.map((call) => call.span_id);
  const label = (e: number) => `expected call ${e + 1} (${expected[e].tool})`;
  if (mode === 'in_order') {
    let next = 0;
    for (let e = 0; e < expected.length; e++) {
      while (next < actual.length && !fits(e, next)) next++;
      if (next === actual.length) {
        return fail(`${label(e)} did not appear in order${e ? ` after expected call ${e}` : ''}${closestMismatch(expected[e], actual, argsMode)}; ${saw}`, ids);
      }
      next++;
    }
    return pass(`the ${expected.length} expected calls appeared in order; ${saw}`, ids);
  }
  if (mode === 'strict') return compareStrict(expected, actual, argsMode, fits, saw, ids);

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
    const what = mode === 'unordered' ? `exactly ${expected.length} calls in any order` : `every call among the ${expected.length} expected`;
    return fail(`expected ${what}; call ${unmatchedActual + 1} (${call.name}) was not expected; ${saw}`, ids);
  }
  const how = { unordered: 'in any order', subset: 'were all among the expected', superset: 'included every expected call' }[mode];
  return pass(
    mode === 'unordered'
      ? `the ${plural(expected.length, 'expected call')} ${expected.length === 1 ? 'was' : 'were'} made ${how}`
      : `the ${plural(actual.length, 'call')} ${how}; ${saw}`,
    ids,
  );
}

/** Same calls in the same order; calls of one model response (same turn) may come in any order. */
function compareStrict(
  expected: readonly ExpectedCall[],
  actual: readonly ToolCall[],
  argsMode: ArgsMode,
  fits: (e: number, a: number) => boolean,
  saw: string,
  ids: string[],
): TrajectoryOutcome {
  let position = 0;
  for (const group of responseGroups(actual)) {
    const first = actual.indexOf(group[0]);
    if (position + group.length > expected.length) {
      const extra = actual[first + Math.max(0, expected.length - position)];
      return fail(`expected ${expected.length} calls; call ${actual.indexOf(extra) + 1} (${extra.name}) was not expected; ${saw}`, ids);
    }
    const { leftToRight } = maxMatching(group.length, group.length, (e, a) => fits(position + e, first + a));
    const missing = leftToRight.indexOf(-1);
    if (missing !== -1) {
      const e = position + missing;
      const at = group.length === 1 ? `call ${first + 1}` : `calls ${first + 1}-${first + group.length} (one model response)`;
      const why = group.length === 1 ? `: ${callMismatch(expected[e], group[0], argsMode)}` : closestMismatch(expected[e], group, argsMode, actual);
      return fail(`expected call ${e + 1} (${expected[e].tool}) at ${at}${why}; ${saw}`, ids);
    }
    position += group.length;
  }
  if (position < expected.length) {
    return fail(`expected call ${position + 1} (${expected[position].tool}) but the run made only ${actual.length} calls; ${saw}`, ids);
  }
  return pass(`the ${plural(expected.length, 'call')} matched in order; ${saw}`, ids);
}

/** Consecutive calls from the same model response (same turn) form one group; other calls stand alone. */
function responseGroups(actual: readonly ToolCall[]): ToolCall[][] {
  const groups: ToolCall[][] = [];
  for (const call of actual) {
    const last = groups[groups.length - 1];
    if (last && call.turn !== null && call.source === 'model' && last[0].turn === call.turn && last[0].source === 'model') last.push(call);
    else groups.push([call]);
  }
  return groups;
}

function pass(reason: string, evidence: string[]): TrajectoryOutcome {
  return { ok: true, reason, evidence };
}

function fail(reason: string, evidence: string[]): TrajectoryOutcome {
  return { ok: false, reason, evidence };
}
