import type { Locator } from '../../config/assert-format.js';
import { throwConfigErrors, type ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import type { AgentBuild, PlanToolCall, ToolSpec } from './types.js';
import { buildAgent } from './build-agent.js';

/** A call a composite tool makes by name, and where the build says so. */
interface CallSite {
  tool: string;
  at: PathSegments;
}

/**
 * Locates a cycle's problem given its calls (`sites`, in the cycle's order): the first is the call
 * that starts it, where it is named by default; a delta names the call it wrote instead.
 */
export type CycleLocator = (sites: readonly PathSegments[], expected: string) => ConfigError;

/**
 * Refuses chains and plans that call themselves, directly or through other composite tools
 * (`a` -> `b` -> `a`): such a tool would recurse until the stack runs out. Every distinct cycle
 * is its own problem, all thrown at once (docs/cli.md, validate), each once however many tools
 * it passes through: it sits at the first call (in build order) that starts it and names it
 * whole (`locateCycle` may name another of its calls). Flow plan components and deterministic
 * steps cannot be called, so they are never inside a cycle; a cycle they reach is one among the
 * tools and is reported there.
 */
export function checkCompositeCycles(build: AgentBuild, locate: Locator, locateCycle: CycleLocator = (sites, expected) => locate(sites[0], expected)): void {
  const tools = buildAgent(build).tools ?? [];
  // Calls by name reach the agent's own tools first (a built-in only when no tool has its name).
  const composites = new Map<string, CallSite[]>();
  tools.forEach((tool, index) => {
    const sites = compositeCalls(tool, ['agent', 'tools', index]);
    if (sites) composites.set(tool.name, sites);
  });
  const problems: ConfigError[] = [];
  const found = new Set<string>();
  for (const [name, sites] of composites) {
    for (const site of sites) {
      if (!composites.has(site.tool)) continue;
      const back = pathTo(site.tool, name, composites);
      if (!back) continue;
      const cycle = [name, ...back.names];
      // `pa -> pb -> pa` found again from pb (`pb -> pa -> pb`), or from a second call, is one cycle.
      const key = cycleKey(cycle);
      if (found.has(key)) continue;
      found.add(key);
      const expected = `"${name}" calls itself through ${cycle.join(' -> ')}; a chain or plan must not call itself, directly or through other tools`;
      problems.push(locateCycle([site.at, ...back.sites], expected));
    }
  }
  throwConfigErrors(problems);
}

/**
 * The `name` of each tool a cycle's calls (`sites`, as a CycleLocator is given them) sit in: the
 * tools it passes through, each reached by its name, so a delta that renamed one into a call's
 * reach closed the cycle as surely as one that wrote a call.
 */
export function cycleToolNames(sites: readonly PathSegments[]): PathSegments[] {
  return sites.map((site) => [...site.slice(0, 3), 'name']);
}

/** One key for a cycle (`a -> b -> a`) whichever of its tools it is read from: its members rotated to start at the least name. */
function cycleKey(cycle: readonly string[]): string {
  const members = cycle.slice(0, -1);
  const start = members.indexOf([...members].sort()[0]);
  return JSON.stringify([...members.slice(start), ...members.slice(0, start)]);
}

/** The call sites of a chain or plan tool, or undefined for any other kind. */
function compositeCalls(tool: ToolSpec, at: PathSegments): CallSite[] | undefined {
  if (tool.chain) return tool.chain.steps.map((step, index) => ({ tool: step.tool, at: [...at, 'chain', 'steps', index, 'tool'] }));
  if (tool.plan) {
    const sites: CallSite[] = [];
    tool.plan.steps.forEach((step, index) => collectPlanCalls(step.tools, [...at, 'plan', 'steps', index, 'tools'], sites));
    return sites;
  }
  return undefined;
}

function collectPlanCalls(calls: readonly PlanToolCall[], at: PathSegments, sites: CallSite[]): void {
  calls.forEach((call, index) => {
    const here = [...at, index];
    if (call.name === 'for_each') {
      if (call.each_item) collectPlanCalls(call.each_item.tools, [...here, 'each_item', 'tools'], sites);
    } else if (call.name === 'if_else') {
      if (call.if) collectPlanCalls(call.if.tools, [...here, 'if', 'tools'], sites);
      if (call.else) collectPlanCalls(call.else.tools, [...here, 'else', 'tools'], sites);
    } else {
      sites.push({ tool: call.name, at: [...here, 'name'] });
    }
  });
}

/**
 * The names from `from` to `to` along composite calls (both ends included) and the calls between
 * them, in order, or undefined.
 */
function pathTo(from: string, to: string, composites: ReadonlyMap<string, CallSite[]>): { names: string[]; sites: PathSegments[] } | undefined {
  // Each name reached, with the name and the call it was reached by.
  const previous = new Map<string, { name: string; at: PathSegments } | null>([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const current = queue.shift() as string;
    if (current === to) {
      const names = [current];
      const sites: PathSegments[] = [];
      for (let step = previous.get(current); step; step = previous.get(step.name)) {
        names.unshift(step.name);
        sites.unshift(step.at);
      }
      return { names, sites };
    }
    for (const site of composites.get(current) ?? []) {
      if (!composites.has(site.tool) || previous.has(site.tool)) continue;
      previous.set(site.tool, { name: current, at: site.at });
      queue.push(site.tool);
    }
  }
  return undefined;
}
