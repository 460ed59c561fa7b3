import { loadSkillDefinition, loadSkillResult } from '../skills/load-skill.js';
import { renderInlineSkills, renderSkillCatalog } from '../skills/render-skills.js';
import { resolveDeliveredSkills } from '../skills/resolve-skills.js';
import type { SkillPackage } from '../skills/skill-package.js';
import type { Revision } from './revision/types.js';
import type { Tool } from './tools/tool.js';
import { buildAgent } from './revision/build-agent.js';

/** How skills reach a run (suite config `skills`, docs/skills.md, Delivery). */
export interface SkillOptions {
  /** Skill folders delivered first, whatever the revision says. */
  forced?: string[];
  /** Skill folders delivered after the revision's own. */
  overlay?: string[];
  delivery?: 'inline' | 'on_demand';
}

export interface SkillDelivery {
  delivered: SkillPackage[];
  skipped: Array<{ name: string; source: string; reason: string }>;
  mode: 'inline' | 'on_demand';
  /** Text appended to the system prompt ('' when there are no skills). */
  prompt: string;
  /** The load_skill tool in on_demand mode. */
  tool?: Tool;
}

/**
 * Resolves the delivered set and how the model receives it. Throws a skill's ConfigError when
 * one cannot be loaded. `tool` is the one rule for whether a run is offered load_skill: the checks
 * of the names a scenario or request uses ask it too (docs/skills.md, Delivery).
 */
export function deliverSkills(revision: Pick<Revision, 'build' | 'source'>, options: SkillOptions = {}): SkillDelivery {
  const mode = options.delivery ?? 'inline';
  const { delivered, skipped } = resolveDeliveredSkills({
    forced: options.forced ?? [],
    revision: buildAgent(revision.build).skills ?? [],
    overlay: options.overlay ?? [],
    revisionFile: revision.source,
  });
  const skippedNames = skipped.map((skip) => ({ name: skip.name, source: skip.source, reason: skip.reason }));
  if (mode === 'inline') return { delivered, skipped: skippedNames, mode, prompt: renderInlineSkills(delivered) };
  const definition = loadSkillDefinition(delivered);
  const tool: Tool | undefined = definition && {
    ...definition,
    readOnly: true,
    permission: 'allow',
    kind: 'skill',
    async execute(args) {
      return { result: loadSkillResult(delivered, String(args.name)), isError: false };
    },
  };
  return { delivered, skipped: skippedNames, mode, prompt: renderSkillCatalog(delivered), tool };
}
