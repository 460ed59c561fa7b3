import type { Locator } from '../../config/assert-format.js';
import { throwConfigErrors } from '../../config/errors.js';
import { withListedParameters, type ListedMcpServer } from '../../engine/mcp/listed-tools.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { checkScenarioNames, type ScenarioNames } from './check-scenario-names.js';

/** Holds names to the tools a run's MCP servers listed (InvokeOptions.onToolsListed). */
export type ListedNamesCheck = (listed: readonly ListedMcpServer[]) => void;

/**
 * The run-time half of "Names a scenario uses" (docs/formats.md): at load, any name of an MCP
 * server without a `tools` list is accepted; once the run's servers have listed their tools,
 * before the model's first call, the names are held to them with the load's rules, messages and
 * locator (`tool_not_called` naming a tool no server offers could only pass). The hook throws
 * every problem, which ends the run; undefined when no build has such a server.
 */
export function listedNamesCheck(names: ScenarioNames, builds: readonly AgentBuild[], locate: Locator): ListedNamesCheck | undefined {
  if (!startsMcpServers(builds)) return undefined;
  return (listed) => {
    const known = builds.map((build) => withListedParameters(build, listed));
    throwConfigErrors(checkScenarioNames(names, known, locate));
  };
}

/**
 * One hook calling each given one in order (undefined ones left out): a caller that records what
 * the servers listed (agentcheck/vitest) keeps the run's own name check. Undefined when none is given.
 */
export function allListedHooks(...hooks: ReadonlyArray<ListedNamesCheck | undefined>): ListedNamesCheck | undefined {
  const given = hooks.filter((hook): hook is ListedNamesCheck => hook !== undefined);
  if (given.length <= 1) return given[0];
  return (listed) => given.forEach((hook) => hook(listed));
}

/** Whether one of the builds has an MCP server: with or without a `tools` list, its tools' parameters are known only when it runs. */
export function startsMcpServers(builds: readonly AgentBuild[]): boolean {
  return builds.some((build) => (buildAgent(build).mcps ?? []).length > 0);
}
