import { memoryLocator, type Locator } from '../../config/assert-format.js';
import { withListedTools, type ListedMcpServer } from '../mcp/listed-tools.js';
import type { AgentBuild } from '../revision/types.js';
import type { ApprovalPolicy } from './approval-policy.js';
import { approvalsFor, checkApprovals } from './check-approvals.js';

/**
 * A run's approvals once its MCP servers have listed their tools, before the model's first call
 * (docs/mcp.md): where a server without a `tools` list left names unchecked at load, they are
 * held to what it lists with the load-time check (the same messages and did-you-mean), then keyed
 * by the names the gates ask with. `heldTo`: the other builds the approvals answer (a scenario's
 * build under each variant); a name one of them has is dropped for this run, not refused (a
 * server of theirs that this run did not start counts as offering nothing: withListedTools).
 * Throws a ConfigError (`approvals at tools.NAME: ...`, or where `locate` places it), which ends
 * the run with stop_reason error.
 */
export function checkRunApprovals(
  policy: ApprovalPolicy | undefined,
  build: AgentBuild,
  listed: readonly ListedMcpServer[],
  heldTo: readonly AgentBuild[] = [],
  locate: Locator = memoryLocator('approvals'),
): ApprovalPolicy | undefined {
  if (!policy) return policy;
  const known = withListedTools(build, listed);
  // Also when this run's build has no such server but another build the approvals answer does
  // (a variant that lists the server's tools, or removes the server): its names are held here too.
  if (policy.tools && (known !== build || heldTo.length > 0)) {
    checkApprovals(policy, [known, ...heldTo.map((other) => withListedTools(other, listed))], locate);
  }
  return approvalsFor(policy, known);
}
