import { formatMismatch } from '../verdicts/args/mismatch.js';
import { show } from '../verdicts/describe.js';
import { matchArgs } from '../verdicts/index.js';
import { digestCallsByFullName } from '../verdicts/tool-digest.js';
import { normalizeToolName } from '../spans/conventions.js';
import { parseSlashRegex } from '../spans/query-regex.js';
import { sameToolName, toolNameMatcher } from '../verdicts/tool-name.js';
import { checkArgumentNames, checkExpectedArgs, checkServerNamed, checkToolName } from './matcher-arguments.js';
import { explain, subjectOf, type MatcherSubject } from './subject.js';

/** What a matcher returns to vitest (`expect.extend`). */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

const VERDICTS = ['pass', 'incomplete', 'unconfirmed', 'failed'] as const;

/** `expect(rowOrResult).toPass()`: a row with status pass, or a test_run with verdict pass. */
export function toPass(received: unknown): MatcherResult {
  const subject = subjectOf(received);
  return {
    pass: subject.passed,
    message: () =>
      subject.passed
        ? `expected ${subject.label} not to pass, but it passed\n${explain(subject)}`
        : `expected ${subject.label} to pass, but it ended ${subject.outcome}\n${explain(subject)}`,
  };
}

/** `expect(rowOrResult).toHaveVerdict('incomplete')`: the test_run verdict (docs/verdicts.md, The test_run verdict). */
export function toHaveVerdict(received: unknown, verdict: string): MatcherResult {
  if (!(VERDICTS as readonly string[]).includes(verdict)) {
    throw new TypeError(`toHaveVerdict expects one of ${VERDICTS.join(', ')}, got ${show(verdict)}`);
  }
  const subject = subjectOf(received);
  const actual = subject.verdict ?? 'none (the run produced no test_run result)';
  return {
    pass: subject.verdict === verdict,
    message: () => `expected ${subject.label} ${subject.verdict === verdict ? 'not ' : ''}to have verdict ${verdict}, got ${actual}\n${explain(subject)}`,
  };
}

/**
 * `expect(rowOrResult).toHaveCalledTool('lookup', {id: '1'})`: some call of the tool (name after
 * prefix stripping, or a /regex/) whose arguments include the expected ones (args_mode superset;
 * matcher objects such as `{$regex: ...}` work as in checks).
 */
export function toHaveCalledTool(received: unknown, name: string, args?: Record<string, unknown>): MatcherResult {
  if (typeof name !== 'string' || !name) throw new TypeError('toHaveCalledTool expects a tool name (or a /regex/) as its first argument');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw new TypeError(`toHaveCalledTool expects the arguments as an object of named values, got ${show(args)}`);
  }
  if (args !== undefined) checkExpectedArgs('toHaveCalledTool', args);
  const subject = subjectOf(received);
  checkToolName('toHaveCalledTool', name, subject);
  if (args !== undefined) checkArgumentNames('toHaveCalledTool', name, args, subject);
  const matches = toolNameMatcher(name);
  const wanted = `${name}${args === undefined ? '' : ` with arguments including ${show(args)}`}`;
  if (!subject.calls) {
    // Without recorded calls only the digest (names and counts, by server) is known.
    if (args !== undefined) {
      throw new TypeError(
        `toHaveCalledTool cannot check arguments: ${subject.label} carries no recorded calls; get it from runScenario() or testRun() of agentcheck/vitest`,
      );
    }
    // Its calls by full name, matched as recorded calls are by their raw_name below.
    const byFullName = subject.tools.flatMap((tool) => digestCallsByFullName(tool).map(([fullName, calls]) => ({ tool: tool.name, fullName, calls })));
    const count = byFullName.filter(({ fullName, calls }) => calls > 0 && matches(fullName)).reduce((sum, { calls }) => sum + calls, 0);
    const why = count
      ? `, but its tool digest counts ${count} call${count === 1 ? '' : 's'} of it`
      : `, but it was never called${digestSiblings(byFullName, name)}`;
    return { pass: count > 0, message: () => `expected ${subject.label} ${count ? 'not ' : ''}to call ${wanted}${why}\n${explain(subject)}` };
  }
  const named = subject.calls.map((call, index) => ({ call, index })).filter(({ call }) => matches(call.raw_name ?? call.name));
  const hit = named.find(({ call }) => matchArgs(args, call.args, 'superset') === null);
  return {
    pass: hit !== undefined,
    message: () => {
      if (hit) return `expected ${subject.label} not to call ${wanted}, but call ${hit.index + 1} did\n${explain(subject)}`;
      if (!named.length) return `expected ${subject.label} to call ${wanted}, but it was never called\n${explain(subject)}`;
      const mismatch = matchArgs(args, named[0].call.args, 'superset');
      const why = mismatch ? formatMismatch(mismatch) : 'arguments differ';
      return `expected ${subject.label} to call ${wanted}, but none of its ${named.length} call(s) matched (call ${named[0].index + 1}: ${why})\n${explain(subject)}`;
    },
  };
}

/**
 * What a digest shows was called under the tool part of a literal name never called (server `a`'s
 * `write_note` beside an expected `mcp__b__write_note`): ` (its tool digest counts write_note's
 * calls as mcp__a__write_note x1)`; '' for a /regex/ or when none was.
 */
function digestSiblings(byFullName: ReadonlyArray<{ tool: string; fullName: string; calls: number }>, name: string): string {
  if (parseSlashRegex(name)) return '';
  const part = normalizeToolName(name);
  const called = byFullName.filter(({ tool, calls }) => calls > 0 && tool === part);
  if (!called.length) return '';
  return ` (its tool digest counts ${part}'s calls as ${called.map(({ fullName, calls }) => `${fullName} x${calls}`).join(', ')})`;
}

/**
 * `expect(rowOrResult).toHaveCalledToolsInOrder(['lookup', 'finish'])`: the tools' first calls
 * happen in this order (a subsequence of the first-call order; other tools may come between).
 */
export function toHaveCalledToolsInOrder(received: unknown, names: readonly string[]): MatcherResult {
  if (!Array.isArray(names) || !names.length || names.some((name) => typeof name !== 'string' || !name)) {
    throw new TypeError(`toHaveCalledToolsInOrder expects a non-empty array of tool names, got ${show(names)}`);
  }
  // First calls are one per tool: a name given twice could never be in order after itself.
  const twice = names.find((name, index) => names.findIndex((other) => sameToolName(other, name)) !== index);
  if (twice !== undefined) throw new TypeError(`toHaveCalledToolsInOrder compares first calls, one per tool: ${show(twice)} is given twice`);
  const subject = subjectOf(received);
  for (const name of names) {
    checkToolName('toHaveCalledToolsInOrder', name, subject);
    checkServerNamed('toHaveCalledToolsInOrder', name, subject);
  }
  const order = firstCallOrder(subject);
  const failure = subsequenceFailure(names, order);
  return {
    pass: failure === null,
    message: () => {
      const head = `expected ${subject.label} ${failure === null ? 'not ' : ''}to call ${names.join(' -> ')} in this order (first calls)`;
      const seen = `first calls were: ${order.map((tool) => tool.name).join(' -> ') || 'none'}`;
      return `${head}, ${failure ? `but ${failure}; ` : ''}${seen}\n${explain(subject)}`;
    },
  };
}

/** A tool in first-call order: its name as messages show it, and the full name server-prefixed names match. */
interface FirstCall {
  name: string;
  full: string;
}

/** Distinct tools (by full name: two servers' write_note are two tools) in the order of their first call. */
function firstCallOrder(subject: MatcherSubject): FirstCall[] {
  if (!subject.calls) return subject.tools.filter((tool) => tool.called > 0).map((tool) => ({ name: tool.name, full: tool.name }));
  const byFull = new Map<string, FirstCall>();
  for (const call of subject.calls) {
    const full = call.raw_name ?? call.name;
    if (!byFull.has(full)) byFull.set(full, { name: call.name, full });
  }
  return [...byFull.values()];
}

/** Why `expected` is not a subsequence of `order`, or null when it is. */
function subsequenceFailure(expected: readonly string[], order: readonly FirstCall[]): string | null {
  let position = 0;
  for (let i = 0; i < expected.length; i++) {
    const matches = toolNameMatcher(expected[i]);
    const found = order.findIndex((tool, index) => index >= position && matches(tool.full));
    if (found >= 0) {
      position = found + 1;
      continue;
    }
    if (!order.some((tool) => matches(tool.full))) return `"${expected[i]}" was never called`;
    return `"${expected[i]}" was first called before "${expected[i - 1]}"`;
  }
  return null;
}
