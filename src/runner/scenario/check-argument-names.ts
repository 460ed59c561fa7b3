import type { Locator } from '../../config/assert-format.js';
import { quoteCapped, shownNames } from '../../config/cap-text.js';
import { didYouMean } from '../../config/did-you-mean.js';
import type { ConfigError } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { closedArgumentNames } from '../../engine/revision/argument-names.js';
import { buildTools, type BuildTools, type KnownTool } from '../../engine/revision/build-tools.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { toolNameMatcher } from '../../verdicts/tool-name.js';

/**
 * The first argument name an expectation on `tool` (a name or /regex/) gives that the tools it
 * stands for in `build` do not take, as a scenario check on it is refused at load; null when they all
 * may be (an unknown tool, open parameters, a server whose tools are known only at run time).
 * agentcheck/vitest's toHaveCalledTool holds its expected arguments to it.
 */
export function argumentNameProblem(tool: string, names: string[], build: AgentBuild, locate: Locator): ConfigError | null {
  const catalog = buildTools(build);
  if (catalog.openServers.length > 0 || catalog.anyName === true) return null;
  const matching = matchingTools(tool, [catalog]);
  return matching.length ? (checkArgNames({ names, at: [] }, matching, locate)[0] ?? null) : null;
}

/** The tools of any catalog that the expected name (or /regex/) stands for. */
export function matchingTools(name: string, catalogs: readonly BuildTools[]): KnownTool[] {
  const matches = toolNameMatcher(name);
  return catalogs.flatMap((catalog) => [...catalog.all.values()].filter((tool) => matches(tool.name)));
}

/**
 * Argument names a check expects must be parameters of the tool when every tool the name stands
 * for declares its parameters closed: `properties` given and `additionalProperties` neither true
 * nor a schema (a model sending other keys would have its call refused as invalid arguments);
 * a name listed in `required` only counts as a parameter (closedArgumentNames). One problem per
 * unknown name, in the order written.
 */
export function checkArgNames(args: { names: string[]; at: PathSegments }, tools: readonly KnownTool[], locate: Locator): ConfigError[] {
  const declared = new Set<string>();
  for (const tool of tools) {
    const properties = closedArgumentNames(tool.parameters);
    if (!properties) return [];
    properties.forEach((name) => declared.add(name));
  }
  const toolNames = shownNames(new Set(tools.map((tool) => tool.name)));
  const expected = shownNames(declared) || '(it takes no arguments)';
  return args.names
    .filter((name) => !name.startsWith('$') && !declared.has(name))
    .map((name) =>
      locate(
        [...args.at, name],
        `argument ${quoteCapped(name)} is not a parameter of ${toolNames}; expected one of: ${expected}${didYouMean(name, declared)}`,
        true,
      ),
    );
}
