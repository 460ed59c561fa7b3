import { dirname, resolve } from 'node:path';
import { assertFormat, type Locator } from '../../config/assert-format.js';
import { ConfigError } from '../../config/errors.js';
import { SourceDocument, type PathSegments, type SourceView } from '../../config/source.js';
import { MCP_TOOL_PREFIX, mcpToolName } from '../../engine/mcp/mcp-tool-name.js';
import type { ApprovalPolicy } from '../../engine/permissions/approval-policy.js';
import type { ScriptEntry } from '../../engine/providers/scripted.js';
import { applyDelta, type DeltaRevision } from '../../engine/revision/delta.js';
import { loadAgentBuild } from '../../engine/revision/load-build.js';
import type { AgentBuild, PlanSpec, PlanToolCall, Revision } from '../../engine/revision/types.js';
import { loadSkillFolder } from '../../skills/load-skill-folder.js';
import { validateChecks, validateToolName } from '../../verdicts/index.js';
import { judgeJobs } from '../judge/grader-model.js';
import { scenarioFileId, type FoundScenarioFile } from './discover.js';
import { scenarioFileSchema, scenarioSchema, validateScript } from './scenario-schema.js';
import type { Scenario } from './scenario.js';
import { isDirectory } from '../files/walk-files.js';

/** Shared while loading a suite: agent builds are parsed once however many scenarios use them. */
export interface LoadContext {
  agents: Map<string, Revision>;
  /** The build as a DeltaRevision with no delta, shared by the scenarios that change nothing. */
  plain?: Map<Revision, DeltaRevision>;
  /** Suite-level default model (`model` in agentcheck.config.yaml). */
  suiteModel?: Record<string, unknown>;
  /** Suite-level default grader of judge checks (`judge.model` in agentcheck.config.yaml). */
  suiteGrader?: Record<string, unknown>;
  /**
   * The suite's variant deltas (`variants` in agentcheck.config.yaml): a tool a variant adds may
   * be answered in a scenario's `approvals.tools`. Without them, only the scenario's own
   * revision counts.
   */
  variants?: Record<string, unknown>;
}

type RawScenario = Record<string, unknown>;

/** Loads one scenario file: one scenario, or `scenarios:` with `defaults` (DESIGN.md 2.8). */
export function loadScenarioFile(found: FoundScenarioFile, context: LoadContext): Scenario[] {
  const doc = SourceDocument.read(found.file);
  const value = doc.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw doc.error([], 'expected a scenario (a mapping with name, agent, inputs) or {scenarios: [...], defaults: {...}}');
  }
  const fileId = scenarioFileId(found.file, found.root);
  const raw = value as RawScenario;
  if (!('scenarios' in raw)) return [loadOne(doc, raw, {}, [], [], fileId, context)];

  assertFormat(scenarioFileSchema, raw, (path, expected, atKey) => doc.error(path, expected, 'CONFIG_INVALID', atKey));
  const defaults = (raw.defaults ?? {}) as RawScenario;
  const names = new Map<string, number>();
  return (raw.scenarios as RawScenario[]).map((scenario, index) => {
    const at = ['scenarios', index];
    const loaded = loadOne(doc, scenario, defaults, at, ['defaults'], fileId, context);
    const previous = names.get(loaded.name);
    if (previous !== undefined) throw doc.error([...at, 'name'], `duplicate scenario name "${loaded.name}" (also scenarios[${previous}]); names must be unique within a file`);
    names.set(loaded.name, index);
    return loaded;
  });
}

function loadOne(
  doc: SourceDocument,
  own: RawScenario,
  defaults: RawScenario,
  at: PathSegments,
  defaultsAt: PathSegments,
  fileId: string,
  context: LoadContext,
): Scenario {
  if (!own || typeof own !== 'object' || Array.isArray(own)) throw doc.error(at, 'expected a scenario mapping');
  const merged: RawScenario = { ...defaults, ...own };
  // A field's errors point where the field was written: the scenario, or the shared defaults.
  const whereOf = (key: unknown): PathSegments => (typeof key === 'string' && !(key in own) && key in defaults ? defaultsAt : at);
  const locate: Locator = (path, expected, atKey) => doc.error([...whereOf(path[0]), ...path], expected, 'CONFIG_INVALID', atKey);
  assertFormat(scenarioSchema, merged, locate);

  const dir = dirname(doc.file);
  const name = merged.name as string;
  const agentFile = resolve(dir, merged.agent as string);
  let base = context.agents.get(agentFile);
  if (!base) {
    try {
      base = loadAgentBuild(agentFile);
    } catch (error) {
      if (error instanceof ConfigError && error.code === 'CONFIG_NOT_FOUND') {
        throw locate(['agent'], `agent build not found: ${agentFile}`);
      }
      throw error;
    }
    context.agents.set(agentFile, base);
  }

  let revision: DeltaRevision = plainRevision(base, context);
  if (merged.delta !== undefined) revision = applyScenarioDelta(revision, merged.delta, doc.view([...whereOf('delta'), 'delta']), dir);
  const model = merged.model as { script?: ScriptEntry[] } & Record<string, unknown> | undefined;
  const { script, ...llmOverride } = model ?? {};
  const llm = { ...(context.suiteModel ?? {}), ...llmOverride };
  if (Object.keys(llm).length) {
    const current = revision.build.agent.llm ?? { provider: 'scripted', model: 'scripted' };
    revision = applyDelta(revision, { set: { agent: { llm: { ...current, ...llm } } } }, doc.view([...whereOf('model'), 'model']));
  }

  if (script) validateScript(script, (path, expected, atKey) => locate(['model', 'script', ...path], expected, atKey));
  const approvals = merged.approvals as ApprovalPolicy | undefined;
  if (approvals?.tools) {
    checkApprovalTools(approvals.tools, [revision.build, ...variantBuilds(revision, context)], (path, expected, atKey) => locate(['approvals', 'tools', ...path], expected, atKey));
  }

  const expect = (merged.expect ?? {}) as Scenario['expect'];
  if (expect.terminal_tool !== undefined) validateToolName(expect.terminal_tool, ['expect', 'terminal_tool'], locate);
  const checks = expect.checks ?? [];
  const locateCheck: Locator = (path, expected, atKey) => locate(['expect', 'checks', ...path], expected, atKey);
  validateChecks(checks, locateCheck);
  const judges = judgeJobs(checks, context.suiteGrader, locateCheck);

  const scenario: Scenario = {
    id: `${fileId}#${name}`,
    name,
    file: doc.file,
    agentFile,
    revision,
    inputs: merged.inputs as Scenario['inputs'],
    expect: { ...expect, checks },
    tags: (merged.tags as string[] | undefined) ?? [],
  };
  if (merged.description !== undefined) scenario.description = merged.description as string;
  if (merged.delta !== undefined) scenario.delta = merged.delta;
  if (merged.workspace !== undefined) {
    scenario.workspace = resolve(dir, merged.workspace as string);
    // A missing folder would silently run on an empty workspace instead.
    if (!isDirectory(scenario.workspace)) throw locate(['workspace'], `workspace folder not found: ${scenario.workspace}`);
  }
  if (script) scenario.script = script;
  if (judges.length) scenario.judges = judges;
  if (approvals !== undefined) scenario.approvals = approvals;
  if (merged.mocks !== undefined) scenario.mocks = merged.mocks as Scenario['mocks'];
  if (merged.resume !== undefined) scenario.resume = merged.resume as Scenario['resume'];
  if (merged.expect_failure !== undefined) scenario.expect_failure = merged.expect_failure as string;
  if (merged.timeout_ms !== undefined) scenario.timeout_ms = merged.timeout_ms as number;
  if (merged.skip !== undefined) scenario.skip = merged.skip as boolean | string;
  if (merged.skills !== undefined) {
    const skills = merged.skills as { forced?: string[]; overlay?: string[]; delivery?: 'inline' | 'on_demand' };
    scenario.skills = {
      forced: (skills.forced ?? []).map((path) => resolve(dir, path)),
      overlay: (skills.overlay ?? []).map((path) => resolve(dir, path)),
      delivery: skills.delivery,
    };
    // A folder that is not a skill is invalid input: say so now, not in the middle of the run.
    const check = (paths: string[], key: string) => paths.forEach((path, i) => {
      try {
        loadSkillFolder(path);
      } catch (error) {
        throw locate(['skills', key, i], error instanceof Error ? error.message : String(error));
      }
    });
    check(scenario.skills.forced, 'forced');
    check(scenario.skills.overlay, 'overlay');
  }
  return scenario;
}

/** A scenario's delta: inline, or a path to a delta file relative to the scenario file. */
function applyScenarioDelta(revision: DeltaRevision, delta: unknown, view: SourceView, dir: string): DeltaRevision {
  if (typeof delta !== 'string') return applyDelta(revision, delta, view);
  const deltaDoc = SourceDocument.read(resolve(dir, delta));
  return applyDelta(revision, deltaDoc.value, deltaDoc);
}

function plainRevision(base: Revision, context: LoadContext): DeltaRevision {
  context.plain ??= new Map();
  let plain = context.plain.get(base);
  if (!plain) context.plain.set(base, (plain = { ...base, deltaHash: null }));
  return plain;
}

/** The scenario's revision under each of the suite's variants (those that apply cleanly). */
function variantBuilds(revision: DeltaRevision, context: LoadContext): AgentBuild[] {
  const builds: AgentBuild[] = [];
  for (const [name, delta] of Object.entries(context.variants ?? {})) {
    try {
      builds.push(applyDelta(revision, delta, `variant ${name}`).build);
    } catch {
      // A variant that does not apply is the suite's error, reported where variants are applied.
    }
  }
  return builds;
}

/**
 * Every key of `approvals.tools` must name something a gate can ask about in one of `builds`:
 * an agent tool, a built-in or tool that a chain, plan or flow step calls by name, a flow
 * human_input component, a tool of a configured MCP server (`mcp__<server>__<tool>`), or
 * load_skill. A typo would otherwise leave the real tool to `approvals.default`.
 * `locate` takes paths relative to `approvals.tools`.
 */
export function checkApprovalTools(tools: Readonly<Record<string, unknown>>, builds: readonly AgentBuild[], locate: Locator): void {
  const targets = builds.map(approvalTargets);
  for (const name of Object.keys(tools)) {
    if (targets.some((target) => target.accepts(name))) continue;
    const known = [...new Set(targets.flatMap((target) => target.listed))];
    throw locate([name], `"${name}" names no tool of the agent; expected one of: ${known.join(', ') || '(the agent has no tools)'}`, true);
  }
}

interface ApprovalTargets {
  accepts(name: string): boolean;
  /** The names to suggest, MCP servers as `mcp__<server>__*`. */
  listed: string[];
}

function approvalTargets(build: AgentBuild): ApprovalTargets {
  const names = new Set<string>((build.agent.tools ?? []).map((tool) => tool.name));
  const addPlan = (plan: PlanSpec | undefined) => plan?.steps.forEach((step) => addPlanCalls(step.tools, names));
  for (const tool of build.agent.tools ?? []) {
    tool.chain?.steps.forEach((step) => names.add(step.tool));
    addPlan(tool.plan);
  }
  for (const component of build.flow?.components ?? []) {
    if (component.type === 'human_input') names.add(component.name);
    if (component.tool_name !== undefined) names.add(component.tool_name);
    component.toolset?.forEach((tool) => names.add(tool));
    addPlan(component.plan);
  }
  const servers = build.agent.mcps ?? [];
  const mcpNames = new Set<string>();
  for (const server of servers) for (const tool of server.tools ?? []) mcpNames.add(mcpToolName(server.name, tool));
  return {
    accepts: (name) => names.has(name) || name === 'load_skill' || servers.some((server) => {
      const prefix = `${MCP_TOOL_PREFIX}${server.name}__`;
      return name.startsWith(prefix) && name.length > prefix.length && (server.tools === undefined || mcpNames.has(name));
    }),
    listed: [...names, ...servers.flatMap((server) => (server.tools ? server.tools.map((tool) => mcpToolName(server.name, tool)) : [`${MCP_TOOL_PREFIX}${server.name}__*`]))],
  };
}

function addPlanCalls(calls: readonly PlanToolCall[], names: Set<string>): void {
  for (const call of calls) {
    if (call.name === 'for_each') addPlanCalls(call.each_item?.tools ?? [], names);
    else if (call.name === 'if_else') {
      addPlanCalls(call.if?.tools ?? [], names);
      addPlanCalls(call.else?.tools ?? [], names);
    } else names.add(call.name);
  }
}
