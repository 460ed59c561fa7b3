import { isModelLoadable, type SkillPackage } from './skill-package.js';

/** The sentence that ends the on_demand catalog: how the model gets a skill's instructions. */
export const CATALOG_INSTRUCTION = 'To use a skill, call the load_skill tool with its name and follow the instructions it returns.';

/**
 * The text appended to the system prompt for `delivery: inline`: every delivered skill, in
 * delivery order, with its full body (docs/skills.md shows the format). '' when there are none.
 * Skills with disable_model_invocation are included: inline delivery needs no invocation.
 */
export function renderInlineSkills(skills: readonly SkillPackage[]): string {
  if (skills.length === 0) return '';
  const blocks = skills.map((skill) => {
    const lines = [`<skill name="${skill.name}">`, `<description>${skill.description}</description>`];
    if (skill.body !== '') lines.push(skill.body);
    lines.push('</skill>');
    return lines.join('\n');
  });
  return ['<skills>', ...blocks, '</skills>'].join('\n');
}

/**
 * The text appended to the system prompt for `delivery: on_demand`: names and descriptions of
 * the skills the model may load, then one sentence about load_skill. '' when none is loadable.
 */
export function renderSkillCatalog(skills: readonly SkillPackage[]): string {
  const loadable = skills.filter(isModelLoadable);
  if (loadable.length === 0) return '';
  const blocks = loadable.map((skill) => `<skill name="${skill.name}">\n<description>${skill.description}</description>\n</skill>`);
  return ['<skills>', ...blocks, '</skills>', CATALOG_INSTRUCTION].join('\n');
}
