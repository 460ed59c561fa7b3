import type { SkillOptions } from '../../engine/skills-delivery.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import { LOAD_SKILL, type BuildTools } from '../../engine/revision/build-tools.js';
import type { Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { normalizeToolName } from '../../spans/conventions.js';
import type { ScenarioNames } from './check-scenario-names.js';
import type { AgentBuild } from '../../engine/revision/types.js';
import type { Scenario } from './scenario.js';

/** The suite's skill options plus the scenario's own (forced and overlay appended, delivery overridden). */
export function mergeSkills(suite: SkillOptions | undefined, own: Scenario['skills']): SkillOptions | undefined {
  if (!own) return suite;
  return {
    forced: [...(suite?.forced ?? []), ...own.forced],
    overlay: [...(suite?.overlay ?? []), ...own.overlay],
    delivery: own.delivery ?? suite?.delivery,
  };
}

/**
 * Why none of a scenario's builds (its own and each variant's) is offered load_skill, or undefined
 * when one is: the tool exists only with on_demand delivery and at least one delivered skill
 * (docs/skills.md, Delivery). A name that can never be offered could only fail the run, so the
 * scenario is refused at load instead. An external agent's tool names are its own code's (it may
 * have a tool of that name), so they are left to its `external.tools` check.
 */
export function noLoadSkillReason(builds: readonly AgentBuild[], skills: SkillOptions | undefined): string | undefined {
  if (builds.some((build) => build.external)) return undefined;
  const why = `"${LOAD_SKILL}" is offered only when skills are delivered on demand (skills.delivery: on_demand) and the run has skills`;
  if (skills?.delivery !== 'on_demand') return `${why}; this scenario's run delivers them inline (the default)`;
  const given = (skills.forced?.length ?? 0) + (skills.overlay?.length ?? 0);
  if (builds.some((build) => given + (buildAgent(build).skills?.length ?? 0) > 0)) return undefined;
  return `${why}; this scenario's run has none (no agent.skills, skills.forced or skills.overlay)`;
}

/** A single run (test-run, MCP test_run, testRun without `skills: {delivery: on_demand}`) has no suite to deliver skills on demand. */
export const SINGLE_RUN_NO_LOAD_SKILL = `"${LOAD_SKILL}" is offered only when skills are delivered on demand (skills: {delivery: on_demand}); this run delivers them inline`;

/**
 * load_skill named where no build is offered it: a script call, terminal tool or check naming it
 * could only fail (or pass vacuously), so each is refused with `why`. Paths are a scenario's.
 */
export function loadSkillProblems(names: ScenarioNames, why: string, locate: Locator): ConfigError[] {
  const problems: ConfigError[] = [];
  if (names.terminalTool !== undefined && isLoadSkill(names.terminalTool)) problems.push(locate(['expect', 'terminal_tool'], why));
  for (const reference of names.references) {
    if (reference.kind === 'tool' && isLoadSkill(reference.name)) problems.push(locate(['expect', 'checks', ...reference.at], why));
  }
  // With allow_unknown_tools a script may call it on purpose, as any tool the model is not offered.
  if (!names.allowUnknownTools)
    names.script?.forEach((entry, index) =>
      entry.tool_calls?.forEach((call, at) => {
        if (call.name === LOAD_SKILL) problems.push(locate(['model', 'script', index, 'tool_calls', at, 'name'], why));
      }),
    );
  return problems;
}

/** Whether a tool name (after prefix stripping) is load_skill. */
export function isLoadSkill(name: string): boolean {
  return normalizeToolName(name) === LOAD_SKILL;
}

/** The catalog without load_skill, for builds that are not offered it (a /regex/ must not match it either). */
export function withoutLoadSkill(catalog: BuildTools): BuildTools {
  let trimmed = trimmedCatalogs.get(catalog);
  if (!trimmed) {
    const all = new Map([...catalog.all].filter(([name]) => name !== LOAD_SKILL));
    const drop = (names: Set<string>) => new Set([...names].filter((name) => name !== LOAD_SKILL));
    trimmed = { ...catalog, all, model: drop(catalog.model), counted: drop(catalog.counted) };
    trimmedCatalogs.set(catalog, trimmed);
  }
  return trimmed;
}

const trimmedCatalogs = new WeakMap<BuildTools, BuildTools>();
