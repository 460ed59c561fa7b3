import { resolveDeliveredSkills, type SkippedSkill } from '../../skills/resolve-skills.js';
import type { DeltaRevision } from '../revision/delta.js';
import type { Revision } from '../revision/types.js';
import type { SkillOptions } from '../skills-delivery.js';

/** Why a skill listed for an external agent's run is not delivered. */
export const EXTERNAL_NO_SKILLS =
  "an external agent receives no skills: its prompt and tools are its own code's, so agentcheck cannot add a skill's text or load_skill to them";

/**
 * The skills a suite or scenario forced or overlaid for an external agent's run, each listed as
 * not delivered (docs/external-agents.md, Limits), so a skill given is never dropped silently.
 * They are still loaded: one that cannot be is an error, as for any run.
 */
export function externalSkillsNotDelivered(revision: Revision | DeltaRevision, options: SkillOptions = {}): SkippedSkill[] {
  const { delivered, skipped } = resolveDeliveredSkills({ forced: options.forced ?? [], overlay: options.overlay ?? [], revisionFile: revision.source });
  return [...delivered.map((skill) => ({ name: skill.name, source: skill.source, reason: EXTERNAL_NO_SKILLS })), ...skipped];
}
