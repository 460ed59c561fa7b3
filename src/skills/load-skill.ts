import { isModelLoadable, type SkillPackage } from './skill-package.js';

/** The load_skill tool as the model sees it (the engine adds the implementation). */
export interface LoadSkillDefinition {
  name: 'load_skill';
  description: string;
  parameters: {
    type: 'object';
    properties: { name: { type: 'string'; description: string } };
    required: ['name'];
    additionalProperties: false;
  };
}

/** What load_skill returns to the model. */
export interface LoadSkillResult {
  name: string;
  description: string;
  body: string;
  files: string[];
}

/**
 * The load_skill tool definition for the skills the model may load, or undefined when there is none
 * (then no tool should be offered). Names are listed in the descriptions rather than as a JSON
 * Schema enum, so an unknown name reaches loadSkillResult and gets a helpful error.
 */
export function loadSkillDefinition(skills: readonly SkillPackage[]): LoadSkillDefinition | undefined {
  const names = loadableNames(skills);
  if (names.length === 0) return undefined;
  const list = names.join(', ');
  return {
    name: 'load_skill',
    description: `Loads a skill: returns its instructions (body) and the names of the files that come with it. Available skills: ${list}.`,
    parameters: loadSkillParameters(names),
  };
}

/**
 * load_skill's parameters schema, naming `names` in the description. Scenario checks hold their
 * `args` keys to its property names (docs/formats.md, "Names a scenario uses").
 */
export function loadSkillParameters(names: readonly string[]): LoadSkillDefinition['parameters'] {
  return {
    type: 'object',
    properties: { name: { type: 'string', description: `The skill's name, one of: ${names.join(', ')}.` } },
    required: ['name'],
    additionalProperties: false,
  };
}

/**
 * The load_skill result for `name`. Throws an Error listing the available names when the skill
 * is unknown or has disable_model_invocation (the engine reports it to the model as a tool error).
 */
export function loadSkillResult(skills: readonly SkillPackage[], name: string): LoadSkillResult {
  const skill = skills.find((candidate) => candidate.name === name);
  if (skill && isModelLoadable(skill)) {
    return { name: skill.name, description: skill.description, body: skill.body, files: [...skill.files] };
  }
  const names = loadableNames(skills);
  const available = names.length > 0 ? `available skills: ${names.join(', ')}` : 'no skill can be loaded';
  const problem = skill ? `skill "${name}" cannot be loaded by the model (disable_model_invocation)` : `unknown skill "${name}"`;
  throw new Error(`${problem}; ${available}`);
}

function loadableNames(skills: readonly SkillPackage[]): string[] {
  return skills.filter(isModelLoadable).map((skill) => skill.name);
}
