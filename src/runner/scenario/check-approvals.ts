import type { Locator } from '../../config/assert-format.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import { buildTools, isOpenServerTool, listedTools } from './build-tools.js';

/** Why an external agent takes no `approvals` nor `resume` (docs/external-agents.md, Limits). */
export const EXTERNAL_NO_GATES = 'an external agent has no approval gates: its tools run in its own code, which agentcheck cannot pause or answer';

/**
 * A scenario's (or a test_run's) `approvals`, held to the builds it runs on: an external agent
 * has no gates, so approvals for it would be silently ignored; otherwise each `tools` key must
 * name a tool (checkApprovalTools). `locate` takes paths relative to `approvals`.
 */
export function checkApprovals(approvals: { tools?: Readonly<Record<string, unknown>> }, builds: readonly AgentBuild[], locate: Locator): void {
  if (builds.some((build) => build.external)) throw locate([], `${EXTERNAL_NO_GATES}; remove approvals`, true);
  if (approvals.tools) checkApprovalTools(approvals.tools, builds, (path, expected, atKey) => locate(['tools', ...path], expected, atKey));
}

/**
 * Every key of `approvals.tools` must name something a gate can ask about in one of `builds`:
 * an agent tool, a built-in or tool that a chain, plan or flow step calls by name, a flow
 * human_input component, a tool of a configured MCP server (`mcp__<server>__<tool>`), or
 * load_skill. A typo would otherwise leave the real tool to `approvals.default`.
 * `locate` takes paths relative to `approvals.tools`.
 */
function checkApprovalTools(tools: Readonly<Record<string, unknown>>, builds: readonly AgentBuild[], locate: Locator): void {
  const catalogs = builds.map(buildTools);
  const problems: ConfigError[] = [];
  for (const name of Object.keys(tools)) {
    if (catalogs.some((catalog) => catalog.all.has(name) || isOpenServerTool(name, catalog))) continue;
    const known = [...new Set(catalogs.flatMap((catalog) => listedTools(catalog)))];
    problems.push(
      locate(
        [name],
        `"${name}" names no tool of the agent; expected one of: ${known.join(', ') || '(the agent has no tools)'}${didYouMean(name, known)}`,
        true,
      ),
    );
  }
  throwConfigErrors(problems);
}
