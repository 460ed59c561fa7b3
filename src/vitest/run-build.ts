import { withListedParameters, type ListedMcpServer } from '../engine/mcp/listed-tools.js';
import type { AgentBuild } from '../engine/revision/types.js';
import { buildTools, LOAD_SKILL } from '../engine/revision/build-tools.js';

// The build a result ran, kept beside it (results stay plain objects), so the matchers know what
// it can call as scenario checks know it: plan, chain and flow-step tools included.
const builds = new WeakMap<object, AgentBuild>();

/**
 * Remembers the build that produced `results` (a row, a TestRunResult, or both). With what the
 * run's MCP servers `listed`, it is the build as a scenario's run-time check holds names to it:
 * their tools and the parameters their input schemas close (docs/vitest.md).
 */
export function recordBuild(build: AgentBuild, listed: readonly ListedMcpServer[] | undefined, ...results: Array<object | null | undefined>): void {
  const known = listed ? withListedParameters(build, listed) : build;
  for (const result of results) if (result) builds.set(result, known);
}

/** A hook for executeTestRun's onToolsListed and what it was told: what the run's MCP servers listed, if they did. */
export function listingRecorder(): { onToolsListed: (listed: readonly ListedMcpServer[]) => void; listed: () => readonly ListedMcpServer[] | undefined } {
  let servers: readonly ListedMcpServer[] | undefined;
  return {
    onToolsListed: (listed) => {
      servers = listed;
    },
    listed: () => servers,
  };
}

/** The build recorded beside `result`, or undefined when it did not come from agentcheck/vitest. */
export function recordedBuild(result: object): AgentBuild | undefined {
  return builds.get(result);
}

/**
 * The tool names a scenario check on the build of `result` accepts (docs/formats.md, "Names a
 * scenario uses"): every tool it can call, built-ins a plan, chain or flow step calls included,
 * human_input components left out, load_skill only when the run offered it (its resolved config
 * lists it, as the subject adds). An MCP server without a `tools` list offers what the run was
 * offered (`offered`, the resolved config's tools), as a scenario's names are held to what its
 * servers list once they run. `[]` when any name may be one (an external agent declaring none, or
 * such a server in a run that ended before it listed its tools); undefined when the build was not recorded.
 */
export function callableToolNames(result: object, offered: readonly string[] = []): string[] | undefined {
  const build = builds.get(result);
  if (!build) return undefined;
  const tools = buildTools(build);
  if (tools.anyName || (tools.openServers.length && !offered.length)) return [];
  const declared = [...tools.all.keys()].filter((name) => name !== LOAD_SKILL && !tools.humanInputs?.has(name));
  return tools.openServers.length ? [...new Set([...declared, ...offered])] : declared;
}
