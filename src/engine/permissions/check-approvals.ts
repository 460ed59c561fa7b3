import type { Locator } from '../../config/assert-format.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import { buildTools, isOpenServerTool, listedTools, LOAD_SKILL } from '../revision/build-tools.js';
import type { AgentBuild } from '../revision/types.js';

/** What answers a tool's approval gate (docs/workflows.md): `reject` is `deny`. */
const TOOL_ANSWERS = ['approve', 'deny', 'reject'];

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
 * human_input component or a tool of a configured MCP server (`mcp__<server>__<tool>`);
 * load_skill is never gated. A typo would otherwise leave the real tool to `approvals.default`. A tool's answer
 * must be approve, deny or reject; only a human_input component takes other text.
 * `locate` takes paths relative to `approvals.tools`. Scenario files, testRun and invoke share it.
 */
function checkApprovalTools(tools: Readonly<Record<string, unknown>>, builds: readonly AgentBuild[], locate: Locator): void {
  const catalogs = builds.map(buildTools);
  const humanInputs = new Set(builds.flatMap((build) => (build.flow?.components ?? []).filter((c) => c.type === 'human_input').map((c) => c.name)));
  const problems: ConfigError[] = [];
  for (const [name, answer] of Object.entries(tools)) {
    // load_skill only reads a delivered skill: nothing asks before it runs, so an answer for it
    // would have no effect (and a deny would seem to forbid what still happens).
    if (name === LOAD_SKILL) {
      problems.push(locate([name], `"${LOAD_SKILL}" is never gated (it only reads a delivered skill), so an answer for it has no effect; remove it`, true));
      continue;
    }
    if (gatesName(name, builds)) {
      // A tool's gate takes approve or deny (reject counts as deny); any other text would leave
      // the call waiting, as if nobody answered. A human_input component also takes a response text.
      if (!humanInputs.has(name) && !TOOL_ANSWERS.includes(answer as string)) {
        problems.push(locate([name], `a tool's approval gate takes ${TOOL_ANSWERS.map((a) => `"${a}"`).join(', ')}; got ${JSON.stringify(answer)}`));
      }
      continue;
    }
    const known = listedTools(catalogs, { loadSkill: false });
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

/** Whether a gate of one of `builds` can ask about `name` (a tool, human_input or open MCP server tool). */
export function gatesName(name: string, builds: readonly AgentBuild[]): boolean {
  return builds.map(buildTools).some((catalog) => catalog.all.has(name) || isOpenServerTool(name, catalog));
}

/**
 * The part of `policy` that `build` can use: a scenario's approvals are held to every variant's
 * build, so an answer for a tool one variant removes is dropped for that variant's run (where
 * invoke would refuse it) rather than failing the row.
 */
export function approvalsFor<T extends { tools?: Readonly<Record<string, unknown>> }>(policy: T, build: AgentBuild): T {
  const tools = policy.tools;
  if (!tools || Object.keys(tools).every((name) => gatesName(name, [build]))) return policy;
  return { ...policy, tools: Object.fromEntries(Object.entries(tools).filter(([name]) => gatesName(name, [build]))) };
}
