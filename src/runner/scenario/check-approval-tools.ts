import type { Locator } from '../../config/assert-format.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { throwConfigErrors, type ConfigError } from '../../config/errors.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { buildTools, isOpenServerTool, listedTools } from './build-tools.js';

/**
 * Every key of `approvals.tools` must name something a gate can ask about in one of `builds`:
 * an agent tool, a built-in or tool that a chain, plan or flow step calls by name, a flow
 * human_input component, a tool of a configured MCP server (`mcp__<server>__<tool>`), or
 * load_skill. A typo would otherwise leave the real tool to `approvals.default`.
 * `locate` takes paths relative to `approvals.tools`.
 */
export function checkApprovalTools(tools: Readonly<Record<string, unknown>>, builds: readonly AgentBuild[], locate: Locator): void {
  const catalogs = builds.map(buildTools);
  const problems: ConfigError[] = [];
  for (const name of Object.keys(tools)) {
    if (catalogs.some((catalog) => catalog.all.has(name) || isOpenServerTool(name, catalog))) continue;
    const known = [...new Set(catalogs.flatMap((catalog) => listedTools(catalog)))];
    problems.push(locate([name], `"${name}" names no tool of the agent; expected one of: ${known.join(', ') || '(the agent has no tools)'}${didYouMean(name, known)}`, true));
  }
  throwConfigErrors(problems);
}
