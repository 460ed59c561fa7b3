import type { Locator } from '../../config/assert-format.js';
import { throwConfigErrors } from '../../config/errors.js';
import { withListedTools, type ListedMcpServer } from '../../engine/mcp/listed-tools.js';
import { buildTools } from '../../engine/revision/build-tools.js';
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
  if (!builds.some((build) => buildTools(build).openServers.length > 0)) return undefined;
  return (listed) => {
    const known = builds.map((build) => withListedTools(build, listed));
    throwConfigErrors(checkScenarioNames(names, known, locate));
  };
}
