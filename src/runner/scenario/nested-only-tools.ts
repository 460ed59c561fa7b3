import type { Locator } from '../../config/assert-format.js';
import { quoteCapped, shownName, shownNames } from '../../config/cap-text.js';
import type { ConfigError } from '../../config/errors.js';
import type { BuildTools } from '../../engine/revision/build-tools.js';
import { parseSlashRegex } from '../../spans/query-regex.js';
import { toolNameMatcher } from '../../verdicts/tool-name.js';

/**
 * Who calls a tool that no build counts: the verdict and checks without `nested: true` see only
 * the model's calls, flow deterministic steps' and plan components (docs/verdicts.md, Evidence).
 * Null when some build counts a call of it (or may, through a tool known only at run time);
 * else the counted chain and plan tools (and plan components) that reach it, and whether any
 * chain or plan calls it at all (a flow may offer a tool nowhere).
 */
function uncountedTool(name: string, catalogs: readonly BuildTools[]): { callers: string[]; calledInside: boolean } | null {
  if (catalogs.some((catalog) => catalog.openServers.length > 0 || catalog.anyName === true)) return null;
  const matches = toolNameMatcher(name);
  if (catalogs.some((catalog) => [...catalog.counted].some(matches))) return null;
  return {
    callers: [...new Set(catalogs.flatMap((catalog) => outerCallers(catalog, matches)))],
    calledInside: catalogs.some((catalog) => [...catalog.nestedCalls].some(matches)),
  };
}

/** Whether some build counts a call of `name` (or may): a terminal tool naming it could pass, so nestedOnlyTerminal finds nothing. */
export function verdictMayCount(name: string, catalogs: readonly BuildTools[]): boolean {
  return uncountedTool(name, catalogs) === null;
}

/** Whether, in every build, only chains and plans call `name`: a tool_not_called without nested: true of it is refused (nestedOnlyNotCalled). */
export function calledOnlyNested(name: string, catalogs: readonly BuildTools[]): boolean {
  return uncountedTool(name, catalogs)?.calledInside === true;
}

/**
 * The verdict counts the model's calls and flow steps' calls, never those made inside a chain or
 * plan (docs/verdicts.md, The test_run verdict): a terminal tool only a chain or plan calls could
 * never pass. Null when some build counts a call of it. Call after the name was found in the builds.
 */
export function nestedOnlyTerminal(name: string, catalogs: readonly BuildTools[], what: string, locate: Locator): ConfigError | null {
  const uncounted = uncountedTool(name, catalogs);
  if (!uncounted) return null;
  if (!uncounted.calledInside) {
    // Not counted and called by no chain or plan: a flow that offers it nowhere.
    const subject = parseSlashRegex(name) ? `matches only tools that` : `names ${quoteCapped(name)}, which`;
    return locate(
      [],
      `${what} ${subject} no agent component's toolset offers and no deterministic step calls, so it is never called and the verdict could never pass; add it to a component's toolset, or name a tool the flow offers`,
    );
  }
  const { callers } = uncounted;
  const hint = callers.length ? `name ${callerNames(callers, catalogs)}` : `check it with tool_called {tool: ${shownName(name)}, nested: true}`;
  return locate([], `${what} ${insideSubject(name)}; the verdict counts only the model's and flow steps' calls, so it could never pass; ${hint}`);
}

/**
 * A tool_not_called check without `nested: true` sees only the calls the verdict counts, so for
 * a tool only a chain or plan calls it passes on every run, also when the tool ran inside one:
 * it could only pass vacuously (docs/verdicts.md, tool_not_called). Null when some build counts a
 * call of it, or when no chain or plan calls it either (`nested: true` would see nothing more).
 * `locate` takes paths relative to where the name is written.
 */
export function nestedOnlyNotCalled(name: string, catalogs: readonly BuildTools[], what: string, locate: Locator): ConfigError | null {
  const uncounted = uncountedTool(name, catalogs);
  if (!uncounted?.calledInside) return null;
  const by = uncounted.callers.length ? ` (by ${shownNames(uncounted.callers)})` : '';
  return locate(
    [],
    `${what} ${insideSubject(name)}${by}; without nested: true it sees only the model's and flow steps' calls, so it could only pass, also when ${shownName(name)} ran; add nested: true (tool_not_called: {tool: ${shownName(name)}, nested: true}) to check that it never ran, also inside a chain or plan`,
  );
}

/** `names "echo", which is called only inside a chain or plan`, or what a /regex/ matches. */
function insideSubject(name: string): string {
  return parseSlashRegex(name)
    ? `matches only tools called inside a chain or plan: ${quoteCapped(name)}`
    : `names ${quoteCapped(name)}, which is called only inside a chain or plan`;
}

/**
 * `the chain or plan tool the model calls (tidy)`, `the plan component that calls it (p), whose
 * run is a call named after it`, or both joined by "or".
 */
function callerNames(callers: readonly string[], catalogs: readonly BuildTools[]): string {
  const isComponent = (name: string) => catalogs.some((catalog) => catalog.planComponents?.has(name));
  const tools = callers.filter((name) => !isComponent(name));
  const components = callers.filter(isComponent);
  const parts: string[] = [];
  if (tools.length) parts.push(`the chain or plan tool the model calls (${shownNames(tools)})`);
  if (components.length) parts.push(`the plan component that calls it (${shownNames(components)}), whose run is a call named after it`);
  return parts.join(' or ');
}

/** The counted chain and plan tools (and plan components) that call a matching tool, directly or through other composites. */
function outerCallers(catalog: BuildTools, matches: (name: string) => boolean): string[] {
  const reaches = (tool: string, seen: Set<string>): boolean => {
    if (seen.has(tool)) return false;
    seen.add(tool);
    return [...(catalog.composites.get(tool) ?? [])].some((callee) => matches(callee) || reaches(callee, seen));
  };
  return [...catalog.counted].filter((tool) => catalog.composites.has(tool) && reaches(tool, new Set()));
}
