import { LISTED_PARAMETERS, NOT_LISTED } from '../mcp/listed-tools.js';
import { MCP_TOOL_PREFIX, mcpToolName } from '../mcp/mcp-tool-name.js';
import { BUILTIN_NAMES } from './tool-schema.js';
import type { AgentBuild, ExternalSpec, PlanSpec, PlanToolCall } from './types.js';
import { BUILTINS } from '../tools/builtins/index.js';
import { buildAgent } from './build-agent.js';
import { loadSkillParameters } from '../../skills/load-skill.js';

/** A tool a build can call, with its parameters schema when the build knows it before the run. */
export interface KnownTool {
  name: string;
  parameters?: object;
  /** A tool of an MCP server this run did not start (withListedParameters): its parameters are another run's to check. */
  notListed?: true;
  /** Whether its calls send an HTTP request (an http tool); absent when that cannot be known (an MCP tool). */
  http?: boolean;
}

/**
 * What one build can call, as far as can be known before it runs (docs/formats.md, "Names a
 * scenario uses"): every tool its model, chains, plans and flow steps can reach, the flow's
 * human_input components (which approvals answer) and plan components (each run is a call named
 * after it, docs/workflows.md), declared MCP tools and load_skill.
 */
export interface BuildTools {
  /** Every tool the build can call or gate, by its full name. */
  all: Map<string, KnownTool>;
  /** The tools the model itself is offered (what a script may call). */
  model: Set<string>;
  /** MCP servers without a `tools` list: their tool names are only known at run time. */
  openServers: string[];
  /** An external agent that declares no tools: any name may be one of its tools. */
  anyName?: boolean;
  /** The flow's human_input components: approvals answer them, but no call of them is recorded. */
  humanInputs?: Set<string>;
  /** The flow's plan components: each run is a call named after the component, which no gate asks about. */
  planComponents?: Set<string>;
  /** The tools whose calls the test_run verdict counts: the model's, flow deterministic steps' and plan components (docs/verdicts.md). */
  counted: Set<string>;
  /** The tools each chain or plan tool (or flow plan component) calls by name (for loops and branches, their blocks' calls). */
  composites: Map<string, Set<string>>;
  /** The tools called inside a chain or plan anywhere: a composite tool's, or a flow plan component's. */
  nestedCalls: Set<string>;
}

/** The tool a build offers when skills are delivered on demand (docs/skills.md). */
export const LOAD_SKILL = 'load_skill';

/**
 * What `build` can call, worked out once per build object: every scenario of a suite checks its
 * names against the same few builds (loaded builds are not changed afterwards).
 */
export function buildTools(build: AgentBuild): BuildTools {
  let tools = catalogs.get(build);
  if (!tools) catalogs.set(build, (tools = collectTools(build)));
  return tools;
}

const catalogs = new WeakMap<AgentBuild, BuildTools>();

function collectTools(build: AgentBuild): BuildTools {
  if (build.external) return externalTools(build.external);
  const all = new Map<string, KnownTool>();
  const model = new Set<string>();
  const agentTools = new Map((buildAgent(build).tools ?? []).map((tool) => [tool.name, tool]));
  const add = (name: string) => {
    if (all.has(name)) return;
    const spec = agentTools.get(name);
    const builtin = spec ? spec.builtin : (BUILTIN_NAMES as readonly string[]).includes(name) ? (name as keyof typeof BUILTINS) : undefined;
    const parameters = spec?.parameters ?? (builtin ? BUILTINS[builtin].parameters : undefined);
    const known: KnownTool = parameters ? { name, parameters } : { name };
    if (spec || builtin) known.http = spec?.http !== undefined;
    all.set(name, known);
  };
  const addPlan = (plan: PlanSpec | undefined, to = add) => plan?.steps.forEach((step) => addPlanCalls(step.tools, to));
  const composites = new Map<string, Set<string>>();
  for (const tool of agentTools.values()) {
    add(tool.name);
    if (!tool.chain && !tool.plan) continue;
    const callees = new Set<string>();
    composites.set(tool.name, callees);
    const addCallee = (name: string) => {
      callees.add(name);
      add(name);
    };
    tool.chain?.steps.forEach((step) => addCallee(step.tool));
    addPlan(tool.plan, addCallee);
  }
  const nestedCalls = new Set([...composites.values()].flatMap((callees) => [...callees]));
  const humanInputs = new Set<string>();
  const planComponents = new Set<string>();
  const stepTools = new Set<string>();
  const components = build.flow?.components ?? [];
  // Without a flow the model sees every agent tool; in a flow, each agent component its toolset.
  if (!build.flow) agentTools.forEach((_tool, name) => model.add(name));
  for (const component of components) {
    if (component.type === 'human_input') {
      all.set(component.name, { name: component.name });
      humanInputs.add(component.name);
    }
    if (component.tool_name !== undefined) {
      add(component.tool_name);
      stepTools.add(component.tool_name);
    }
    component.toolset?.forEach(add);
    if (component.type === 'agent') (component.toolset ?? [...agentTools.keys()]).forEach((name) => model.add(name));
    if (component.type === 'plan') {
      // Recorded as a call of a plan tool named after the component (docs/workflows.md): no HTTP request.
      all.set(component.name, { name: component.name, http: false });
      planComponents.add(component.name);
      const callees = new Set<string>();
      composites.set(component.name, callees);
      addPlan(component.plan, (name) => {
        callees.add(name);
        nestedCalls.add(name);
        add(name);
      });
    }
  }
  const openServers: string[] = [];
  for (const server of buildAgent(build).mcps ?? []) {
    if (!server.tools) openServers.push(server.name);
    // Known only once the server has listed its tools (withListedParameters).
    const marks = server as { [LISTED_PARAMETERS]?: ReadonlyMap<string, object>; [NOT_LISTED]?: true };
    for (const tool of server.tools ?? []) {
      const name = mcpToolName(server.name, tool);
      const parameters = marks[LISTED_PARAMETERS]?.get(tool);
      all.set(name, parameters ? { name, parameters } : marks[NOT_LISTED] ? { name, notListed: true } : { name });
      model.add(name);
    }
  }
  // Which skills are delivered is the scenario's or suite's; only the parameter names matter here.
  all.set(LOAD_SKILL, { name: LOAD_SKILL, parameters: loadSkillParameters([]) });
  model.add(LOAD_SKILL);
  return { all, model, openServers, humanInputs, planComponents, counted: new Set([...model, ...stepTools, ...planComponents]), composites, nestedCalls };
}

/**
 * An external agent's tools are the ones it declares (`external.tools`); its model is offered
 * all of them. Without the list nothing can be held against it (docs/external-agents.md).
 */
function externalTools(external: ExternalSpec): BuildTools {
  const declared = external.tools;
  const all = new Map<string, KnownTool>(
    (declared ?? []).map((tool) => [tool.name, tool.parameters ? { name: tool.name, parameters: tool.parameters } : { name: tool.name }]),
  );
  return {
    all,
    model: new Set(all.keys()),
    openServers: [],
    anyName: declared === undefined,
    counted: new Set(all.keys()),
    composites: new Map(),
    nestedCalls: new Set(),
  };
}

/** Whether `name` may be a tool known only at run time: an open MCP server's (`mcp__<server>__<tool>`), or any name for an external agent that declares none. */
export function isOpenServerTool(name: string, tools: BuildTools): boolean {
  if (tools.anyName) return true;
  return tools.openServers.some((server) => {
    const prefix = `${MCP_TOOL_PREFIX}${server}__`;
    return name.startsWith(prefix) && name.length > prefix.length;
  });
}

/** How listedTools shows an open MCP server's tools: `mcp__<server>__*`. */
const ANY_TOOL_OF = '__*';

/**
 * The names an "expected one of" list offers, over every build: what each can call
 * (`modelOnly`: what its model is offered), open MCP servers as `mcp__<server>__*`, and
 * load_skill only where that name is accepted (`loadSkill`: a scenario, or a single run
 * delivering skills on demand; never approvals), so no list offers a name the next message
 * refuses. A "did you mean" picks from suggestableTools of it.
 */
export function listedTools(catalogs: readonly BuildTools[], options: { modelOnly?: boolean; loadSkill: boolean }): string[] {
  const names = catalogs.flatMap((tools) => [
    ...(options.modelOnly ? tools.model : tools.all.keys()),
    ...tools.openServers.map((server) => `${MCP_TOOL_PREFIX}${server}${ANY_TOOL_OF}`),
  ]);
  return [...new Set(names)].filter((name) => options.loadSkill || name !== LOAD_SKILL);
}

/** The names of a listedTools list a "did you mean" may offer: `mcp__<server>__*` stands for a server's tools and is no name to write. */
export function suggestableTools(listed: readonly string[]): string[] {
  return listed.filter((name) => !name.endsWith(ANY_TOOL_OF));
}

function addPlanCalls(calls: readonly PlanToolCall[], add: (name: string) => void): void {
  for (const call of calls) {
    if (call.name === 'for_each') addPlanCalls(call.each_item?.tools ?? [], add);
    else if (call.name === 'if_else') {
      addPlanCalls(call.if?.tools ?? [], add);
      addPlanCalls(call.else?.tools ?? [], add);
    } else add(call.name);
  }
}
