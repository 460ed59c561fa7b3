import { memoryLocator } from '../../config/assert-format.js';
import { throwConfigErrors } from '../../config/errors.js';
import { withListedTools, type ListedMcpServer } from '../../engine/mcp/listed-tools.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { checkScenarioNames, type ScenarioNames } from './check-scenario-names.js';

/**
 * The run-time half of "Names a scenario uses" (docs/formats.md): at load, any name of an MCP
 * server without a `tools` list is accepted; once the run's servers have listed their tools,
 * before the model's first call, the names are held to them with the load's rules and messages
 * (`tool_not_called` naming a tool no server offers could only pass). Throws every problem,
 * located at `file` and the scenario's path, which ends the run (InvokeOptions.onToolsListed).
 */
export function listedNamesCheck(file: string, held: { names: ScenarioNames; builds: readonly AgentBuild[] }): (listed: readonly ListedMcpServer[]) => void {
  return (listed) => {
    const builds = held.builds.map((build) => withListedTools(build, listed));
    throwConfigErrors(checkScenarioNames(held.names, builds, memoryLocator(file)));
  };
}
