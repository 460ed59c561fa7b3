import type { Locator } from '../config/assert-format.js';
import { nearKey } from '../config/did-you-mean.js';
import { ownValue } from '../config/own-key.js';
import { throwConfigErrors, type ConfigError } from '../config/errors.js';

/** Skill names: lower-case letters, digits and hyphens, 1 to 64 characters (docs/skills.md). */
export const SKILL_NAME = /^[a-z0-9-]{1,64}$/;

/** The keys SKILL.md front matter may hold; anything else is an error. */
export const SKILL_META_KEYS = ['name', 'description', 'disable_model_invocation'] as const;

/** The validated metadata of a skill (front matter, or an inline entry minus its body). */
export interface SkillMeta {
  name: string;
  description: string;
  disable_model_invocation: boolean;
}

// Spellings used by other skill formats (Claude Code writes kebab-case); worth a hint, not a pass.
const HINTS: Record<string, string> = {
  'disable-model-invocation': 'disable_model_invocation',
  disableModelInvocation: 'disable_model_invocation',
};

/**
 * Checks skill metadata strictly and returns it typed. `extraKeys` are further keys the caller
 * handles itself (an inline entry's `body`); every other unknown key is an error.
 */
export function validateSkillMeta(value: Record<string, unknown>, locate: Locator, extraKeys: readonly string[] = []): SkillMeta {
  // Every problem of the metadata in one pass (docs/cli.md, validate).
  const problems: ConfigError[] = [];
  const allowed = [...SKILL_META_KEYS, ...extraKeys];
  // A misspelt key says what it misspells; that key is then not reported missing as well.
  const misspelt = new Set<string>();
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const near = ownValue(HINTS, key) ?? nearKey(key, allowed);
    if (near) misspelt.add(near);
    problems.push(locate([key], `unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ''}; a skill takes ${listKeys(allowed)}`, true));
  }

  const { name, description, disable_model_invocation: disabled } = value;
  if (name === undefined) {
    if (!misspelt.has('name')) problems.push(locate(['name'], `missing required key "name" (a skill name matching ${SKILL_NAME.source})`));
  } else if (typeof name !== 'string' || !SKILL_NAME.test(name)) {
    problems.push(locate(['name'], `expected a skill name matching ${SKILL_NAME.source} (lower-case letters, digits, hyphens), got ${show(name)}`));
  }
  if (description === undefined) {
    if (!misspelt.has('description'))
      problems.push(locate(['description'], 'missing required key "description" (one or two sentences saying when to use the skill)'));
  } else if (typeof description !== 'string' || description.trim() === '') {
    problems.push(locate(['description'], `expected "description" to be a non-empty string, got ${show(description)}`));
  }
  if (disabled !== undefined && typeof disabled !== 'boolean') {
    problems.push(locate(['disable_model_invocation'], `expected "disable_model_invocation" to be true or false, got ${show(disabled)}`));
  }
  throwConfigErrors(problems);
  return { name: name as string, description: (description as string).trim(), disable_model_invocation: (disabled as boolean | undefined) ?? false };
}

/**
 * The body as delivered: LF line ends, no blank lines before the text, no trailing whitespace,
 * so a SKILL.md body and the same text given inline render identically.
 */
export function normaliseSkillBody(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
}

function listKeys(keys: readonly string[]): string {
  return keys.length > 1 ? `${keys.slice(0, -1).join(', ')} and ${keys[keys.length - 1]}` : keys.join('');
}

function show(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${String(value)}`;
}
