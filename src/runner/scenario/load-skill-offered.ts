import { deliverSkills, type SkillDelivery, type SkillOptions } from '../../engine/skills-delivery.js';
import { LOAD_SKILL, type BuildTools } from '../../engine/revision/build-tools.js';
import type { Locator } from '../../config/assert-format.js';
import { ConfigError } from '../../config/errors.js';
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

/** How a load_skill refusal names the run, and the flag that adds skill folders to it where its caller has one (`--overlay`). */
export interface LoadSkillRun {
  /** "this scenario's run", "this run". */
  name: string;
  /** `--overlay`, named as the way to add a skill; none where the caller cannot give one. */
  overlayFlag?: string;
}

/** The rule load_skill is held to, said in every refusal of the name (docs/skills.md, Delivery). */
const OFFERED_ONLY = `"${LOAD_SKILL}" is offered only when skills are delivered on demand (skills.delivery: on_demand) and the run has a skill the model may load`;

/**
 * Why none of `builds` (a scenario's own and each variant's, or a request's one) is offered
 * load_skill under `skills`, or undefined when one is. The engine's delivery decides
 * (deliverSkills), so this agrees with the run: on_demand delivery and a delivered skill without
 * disable_model_invocation (docs/skills.md, Delivery). A name that can never be offered could only
 * fail the run, so the scenario or request is refused before it instead. An external agent's tool
 * names are its own code's (it may have a tool of that name), so they are left to its
 * `external.tools` check. `run` names the run in the reason and the flag that could add a skill.
 */
export function noLoadSkillReason(builds: readonly AgentBuild[], skills: SkillOptions | undefined, run: LoadSkillRun): string | undefined {
  if (builds.some((build) => build.external)) return undefined;
  const deliveries: SkillDelivery[] = [];
  for (const build of builds) {
    try {
      deliveries.push(deliverSkills({ build, source: '<build>' }, skills));
    } catch (error) {
      // A skill that cannot be loaded is said where it is listed (the build, a config, --overlay,
      // the request): with the delivered set unknown, nothing is concluded about load_skill.
      if (error instanceof ConfigError) return undefined;
      throw error;
    }
  }
  if (deliveries.some((delivery) => delivery.tool)) return undefined;
  const { name } = run;
  if (skills?.delivery !== 'on_demand')
    return `${OFFERED_ONLY}; ${name} delivers them inline (${skills?.delivery ? 'skills.delivery: inline' : 'the default'})`;
  const delivered = [...new Set(deliveries.flatMap((delivery) => delivery.delivered.map((skill) => skill.name)))];
  // The way out a suite has beyond its files: skill folders given with the flag, to validate as to run.
  const flag = run.overlayFlag ? `; skill folders given with ${run.overlayFlag} count too (validate takes them as run does)` : '';
  if (!delivered.length) return `${OFFERED_ONLY}; ${name} has none (no agent.skills, skills.forced or skills.overlay)${flag}`;
  return `${OFFERED_ONLY}; every skill ${name} delivers has disable_model_invocation: true (${delivered.join(', ')}), so the model may load none${flag}`;
}

/** Where a run that names load_skill can be given: what a single run without a skills option can do instead. */
const ON_DEMAND_ELSEWHERE = `test load_skill in a scenario with skills: {delivery: on_demand} (or the suite config's skills.delivery), or from code with testRun's skills: {delivery: on_demand}`;

/** The CLI's test-run (and resume of its run) has no skills option: it delivers them inline (docs/skills.md, Delivery). */
export const TEST_RUN_NO_LOAD_SKILL = `"${LOAD_SKILL}" is offered only when skills are delivered on demand; a test-run delivers skills inline (it has no option to change that), so it is never offered; ${ON_DEMAND_ELSEWHERE}`;

/** An MCP test_run has no skills argument: it delivers them inline (docs/mcp.md). */
export const MCP_TEST_RUN_NO_LOAD_SKILL = `"${LOAD_SKILL}" is offered only when skills are delivered on demand; an MCP test_run delivers skills inline (it has no skills argument), so it is never offered; ${ON_DEMAND_ELSEWHERE}`;

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
