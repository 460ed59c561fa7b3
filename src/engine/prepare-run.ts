import { secretEnvValues } from '../config/redact.js';
import type { Context, Tracer } from '@opentelemetry/api';
import type { InvokeOptions } from './invoke.js';
import type { LoopSetup } from './loop/agent-loop.js';
import type { Model, ToolDefinition } from './model/model.js';
import { createModel } from './providers/index.js';
import { DEFAULT_MAX_TURNS, resolveConfig, type ResolvedConfig } from './resolve-config.js';
import type { DeltaRevision } from './revision/delta.js';
import type { Revision } from './revision/types.js';
import { createPromptSecurity } from './security/prompt-security.js';
import { deliverSkills } from './skills-delivery.js';
import { builtinFallbackTools } from './tools/kinds/builtin-tool-kind.js';
import { buildTool } from './tools/kinds/index.js';
import { checkToolHeaderVariables } from './tools/kinds/http-tool-headers.js';
import type { RunProcesses } from './tools/process/run-processes.js';
import type { Tool } from './tools/tool.js';
import { ToolCaller } from './tools/tool-caller.js';
import type { Workspace } from './workspace/workspace.js';
import { buildAgent } from './revision/build-agent.js';

/** Everything a run uses, built once from the revision and the invoke options. */
export interface PreparedRun {
  /** The agent's tools (plus load_skill when skills are delivered on demand), by name. */
  tools: ReadonlyMap<string, Tool>;
  /** The built-ins by their own names, for plans, chains and flows. */
  fallbackTools: ReadonlyMap<string, Tool>;
  model: Model;
  resolved: ResolvedConfig;
  /** The agent's instructions alone, and the skills text appended to every system prompt. */
  instructions: string;
  skillsPrompt: string;
  /** The agent loop's set-up for the whole agent (flows narrow it per component). */
  loopSetup: LoopSetup;
}

/** Where a run's spans go and where its tools work. */
export interface RunPlace {
  tracer: Tracer;
  /** The root span's context. */
  parent: Context;
  workspace: Workspace;
  /** Model calls already made (a resumed run): a scripted model skips that many entries. */
  modelCallsDone?: number;
  /** Tools opened before the run (its MCP servers' tools), offered after the agent's own. */
  extraTools?: readonly Tool[];
  /** Where the run's commands register their processes. */
  processes?: RunProcesses;
}

/**
 * Builds the tools, model, resolved config and call path of a run (shared by invoke and
 * resume), with `options.approvals` as checkRunApprovals keyed them. Throws ConfigError /
 * ModelError / RunError (an http tool's header reads an unset variable) when the run cannot start.
 */
export function prepareRun(revision: Revision | DeltaRevision, options: InvokeOptions, place: RunPlace): PreparedRun {
  const agent = buildAgent(revision.build);
  // A header's variable that is not set ends the run now, as an MCP server's does at its start.
  checkToolHeaderVariables(agent.tools ?? [], options.env ?? process.env);
  const skills = deliverSkills(revision, options.skills);
  const toolList = (agent.tools ?? []).map(buildTool);
  if (place.extraTools) toolList.push(...place.extraTools);
  if (skills.tool) toolList.push(skills.tool);
  const model = options.model ?? createModel(agent.llm, { script: options.script, scriptStart: place.modelCallsDone, env: options.env });
  const tools = new Map(toolList.map((tool) => [tool.name, tool]));
  const fallbackTools = builtinFallbackTools();
  const resolved = resolveConfig(revision, {
    model,
    tools: [...toolList, ...flowBuiltins(revision, tools, fallbackTools)],
    skills: skills.delivered.map((skill) => skill.name),
    skillsDelivery: skills.mode,
    skillsNotDelivered: skills.skipped,
  });
  const caller = new ToolCaller({
    tools,
    fallbackTools,
    agent,
    // Keyed by the names the gates ask with (checkRunApprovals): an MCP tool given by its tool part gets its full name.
    approvals: options.approvals,
    security: createPromptSecurity(options.encodedTags),
    tracer: place.tracer,
    workspace: place.workspace,
    env: options.env ?? process.env,
    signal: options.signal,
    processes: place.processes,
  });
  const instructions = agent.instructions ?? '';
  return {
    tools,
    fallbackTools,
    model,
    resolved,
    instructions,
    skillsPrompt: skills.prompt,
    loopSetup: {
      model,
      system: [instructions, skills.prompt].filter(Boolean).join('\n\n'),
      tools: toolList.map(toDefinition),
      parameters: agent.llm?.parameters ?? {},
      caller,
      maxTurns: agent.max_turns ?? DEFAULT_MAX_TURNS,
      tracer: place.tracer,
      parent: place.parent,
      signal: options.signal,
      contentCapture: options.captureContent ? { secrets: secretEnvValues(options.env ?? process.env) } : undefined,
    },
  };
}

function toDefinition(tool: Tool): ToolDefinition {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

/**
 * The built-ins a flow offers without the agent listing them (a component's toolset, a
 * deterministic step's tool_name): they run too, so the resolved config lists them.
 */
function flowBuiltins(revision: Revision | DeltaRevision, tools: ReadonlyMap<string, Tool>, builtins: ReadonlyMap<string, Tool>): Tool[] {
  const named = new Set<string>();
  for (const component of revision.build.flow?.components ?? []) {
    for (const name of component.toolset ?? []) named.add(name);
    if (component.tool_name !== undefined) named.add(component.tool_name);
  }
  return [...named].filter((name) => !tools.has(name)).flatMap((name) => builtins.get(name) ?? []);
}
