import type { SkillOptions } from '../../engine/skills-delivery.js';
import { buildAgent } from '../../engine/revision/build-agent.js';
import { LOAD_SKILL } from '../../engine/revision/build-tools.js';
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
 * when one is: the tool exists only with on_demand delivery and at least one delivered skill, and
 * never for an external agent (docs/skills.md, Delivery). A name that can never be offered could
 * only fail the run, so the scenario is refused at load instead.
 */
export function noLoadSkillReason(builds: readonly AgentBuild[], skills: SkillOptions | undefined): string | undefined {
  const why = `"${LOAD_SKILL}" is offered only when skills are delivered on demand (skills.delivery: on_demand) and the run has skills`;
  if (skills?.delivery !== 'on_demand') return `${why}; this scenario's run delivers them inline (the default)`;
  const given = (skills.forced?.length ?? 0) + (skills.overlay?.length ?? 0);
  const offered = builds.some((build) => !build.external && given + (buildAgent(build).skills?.length ?? 0) > 0);
  if (offered) return undefined;
  if (builds.every((build) => build.external)) return `${why}; an external agent receives no skills (docs/external-agents.md)`;
  return `${why}; this scenario's run has none (no agent.skills, skills.forced or skills.overlay)`;
}
