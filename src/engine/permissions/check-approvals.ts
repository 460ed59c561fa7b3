import type { Locator } from '../../config/assert-format.js';
import { quoteCapped, quoteJson, shownNames } from '../../config/cap-text.js';
import { closestWord, didYouMean } from '../../config/did-you-mean.js';
import { ConfigError, throwConfigErrors } from '../../config/errors.js';
import { normalizeToolName } from '../../spans/conventions.js';
import { MCP_TOOL_PREFIX } from '../mcp/mcp-tool-name.js';
import { buildTools, isOpenServerTool, listedTools, LOAD_SKILL, suggestableTools, type BuildTools } from '../revision/build-tools.js';
import type { AgentBuild } from '../revision/types.js';
import type { PathSegments } from '../../config/source.js';

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
 * `approvals` as checkApprovals takes it beside format problems: only the `tools` answers the
 * format check left valid (`valid` takes paths relative to `approvals`), so a bad `default` or
 * answer hides no other answer's unknown tool (docs/cli.md, validate: every problem in one pass).
 */
export function soundApprovalTools(approvals: { tools?: unknown }, valid: (path: PathSegments) => boolean): { tools: Record<string, unknown> } {
  // A `tools` that is not a mapping is a format problem (every key of it then invalid).
  const tools = typeof approvals.tools === 'object' && approvals.tools !== null ? approvals.tools : {};
  return { tools: Object.fromEntries(Object.entries(tools).filter(([name]) => valid(['tools', name]))) };
}

/**
 * Every key of `approvals.tools` must name something a gate can ask about in one of `builds`:
 * an agent tool, a built-in or tool that a chain, plan or flow step calls by name, a flow
 * human_input component or a tool of a configured MCP server (`mcp__<server>__<tool>`, or its
 * tool part alone when that names exactly one tool);
 * load_skill and a flow plan component are never gated. A typo would otherwise leave the real tool to `approvals.default`. A tool's answer
 * must be approve, deny or reject; only a human_input component takes other text.
 * A server without a `tools` list names its tools only once it runs: a tool part alone may be
 * one of them, so it waits for the run's own check (checkRunApprovals), as full names under such a
 * server do. `locate` takes paths relative to `approvals.tools`. Scenario files, testRun and invoke share it,
 * and so does the check at the start of a run, with the builds' servers' listed tools.
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
    // A plan component's run is recorded as a call, but no gate asks about it: the calls inside it are gated each.
    if (catalogs.some((catalog) => catalog.planComponents?.has(name)) && !gatesName(name, builds)) {
      problems.push(
        locate(
          [name],
          `${quoteCapped(name)} is a plan component, which is never gated (each call inside it is, by its tool's name), so an answer for it has no effect; remove it`,
          true,
        ),
      );
      continue;
    }
    const byToolPart = gatesName(name, builds) ? [] : mcpToolsNamed(name, catalogs);
    if (byToolPart.length === 1 || gatesName(name, builds) || (byToolPart.length === 0 && mayBeListedToolPart(name, catalogs))) {
      // A tool's gate takes approve or deny (reject counts as deny); any other text would leave
      // the call waiting, as if nobody answered. A human_input component also takes a response text.
      if (!humanInputs.has(name) && !TOOL_ANSWERS.includes(answer as string)) {
        problems.push(answerProblem(locate, name, answer));
      }
      continue;
    }
    const known = listedTools(catalogs, { loadSkill: false }).filter((tool) => !catalogs.some((catalog) => catalog.planComponents?.has(tool)));
    // The result names an MCP tool without its prefix: the full names it could mean are the hint.
    const hint =
      byToolPart.length > 1
        ? `; it is the tool part of ${byToolPart.map((full) => quoteCapped(full)).join(' and ')}: did you mean one of them?`
        : didYouMean(name, suggestableTools(known)) || mcpDidYouMean(name, catalogs) || openServerDidYouMean(name, catalogs);
    problems.push(
      locate([name], `${quoteCapped(name)} names no tool of the agent; expected one of: ${shownNames(known) || '(the agent has no tools)'}${hint}`, true),
    );
    // Whatever tool the name was meant for, its gate takes these answers (no human_input could take
    // a text): said now, so fixing the name does not reveal a second problem.
    if (!humanInputs.size && !TOOL_ANSWERS.includes(answer as string)) problems.push(answerProblem(locate, name, answer));
  }
  throwConfigErrors(problems);
}

/** A tool's answer that is not approve, deny or reject, at its value. */
function answerProblem(locate: Locator, name: string, answer: unknown): ConfigError {
  return locate([name], `a tool's approval gate takes ${TOOL_ANSWERS.map((a) => `"${a}"`).join(', ')}; got ${quoteJson(answer)}`);
}

/** Whether a gate of one of `builds` can ask about `name` (a tool, human_input or open MCP server tool; never a plan component). */
export function gatesName(name: string, builds: readonly AgentBuild[]): boolean {
  return builds.map(buildTools).some((catalog) => (catalog.all.has(name) && !catalog.planComponents?.has(name)) || isOpenServerTool(name, catalog));
}

/** Whether `name` may be the tool part of a tool that a server without a `tools` list offers (known only once it runs). */
function mayBeListedToolPart(name: string, catalogs: readonly BuildTools[]): boolean {
  return !name.startsWith(MCP_TOOL_PREFIX) && catalogs.some((catalog) => catalog.openServers.length > 0);
}

/**
 * The full `mcp__<server>__<tool>` names of the builds' declared MCP tools whose tool part is
 * `name` (`list_directory`, as a result's approvals and verdict name it; docs/mcp.md).
 */
function mcpToolsNamed(name: string, catalogs: readonly BuildTools[]): string[] {
  const full = catalogs.flatMap((catalog) => [...catalog.all.keys()].filter((tool) => tool.startsWith(MCP_TOOL_PREFIX) && normalizeToolName(tool) === name));
  return [...new Set(full)];
}

/** `; did you mean "mcp__fs__list_directory"?` for a near miss of an MCP tool's tool part, else ''. */
function mcpDidYouMean(name: string, catalogs: readonly BuildTools[]): string {
  const mcpTools = catalogs.flatMap((catalog) => [...catalog.all.keys()].filter((tool) => tool.startsWith(MCP_TOOL_PREFIX)));
  const near = closestWord(name, new Set(mcpTools.map(normalizeToolName)));
  const full = near === undefined ? [] : mcpToolsNamed(near, catalogs);
  return full.length === 1 ? `; did you mean ${quoteCapped(full[0])}?` : '';
}

/** `mcp__notes__write_note` for `mcp__nots__write_note`: a near miss of a server whose tools are known only once it runs. */
function openServerDidYouMean(name: string, catalogs: readonly BuildTools[]): string {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  if (!match) return '';
  const [, server, tool] = match;
  const near = closestWord(server, new Set(catalogs.flatMap((catalog) => catalog.openServers)));
  return near === undefined ? '' : `; did you mean ${quoteCapped(`${MCP_TOOL_PREFIX}${near}__${tool}`)}?`;
}

/**
 * The part of `policy` that `build` can use, by the names its gates ask with: a scenario's
 * approvals are held to every variant's build, so an answer for a tool one variant removes is
 * dropped for that variant's run (where invoke would refuse it) rather than failing the row; an
 * MCP tool named by its tool part alone (`list_directory`) is keyed by its full name. With a
 * server without a `tools` list, tool parts are kept as given: the run keys them once the
 * server has listed its tools (checkRunApprovals).
 */
export function approvalsFor<T extends { tools?: Readonly<Record<string, unknown>> }>(policy: T, build: AgentBuild): T {
  const tools = policy.tools;
  if (!tools || Object.keys(tools).every((name) => gatesName(name, [build]))) return policy;
  const catalogs = [buildTools(build)];
  const open = catalogs[0].openServers.length > 0;
  const keyed = Object.entries(tools).flatMap(([name, answer]): Array<[string, unknown]> => {
    if (gatesName(name, [build]) || (open && !name.startsWith(MCP_TOOL_PREFIX))) return [[name, answer]];
    const full = mcpToolsNamed(name, catalogs);
    // The full name, when given too, is the more specific answer.
    return full.length === 1 && !(full[0] in tools) ? [[full[0], answer]] : [];
  });
  return { ...policy, tools: Object.fromEntries(keyed) };
}
