import { isAbsolute, resolve } from 'node:path';
import type { Locator } from '../../config/assert-format.js';
import { ConfigError, withCode } from '../../config/errors.js';
import type { PathSegments } from '../../config/source.js';
import { loadSkillFolder } from '../../skills/load-skill-folder.js';
import { buildAgent } from './build-agent.js';
import type { AgentBuild } from './types.js';

/**
 * A skill `ref` must name a skill folder: checked at load, so a bad ref is invalid input (exit 2)
 * rather than a failed run. A missing folder is located at the ref; a problem inside a SKILL.md
 * points at that file. Returns the skill's name.
 */
export function checkSkillRef(folder: string, at: PathSegments, locate: Locator): string {
  try {
    // A reference, so the message says what a ref is relative to (docs/skills.md).
    return loadSkillFolder(folder, { file: folder }).name;
  } catch (error) {
    // Problems of the folder itself (missing, too many files) are the ref's to fix: located
    // there, with their code (docs/skills.md); those inside SKILL.md keep SKILL.md's location.
    if (error instanceof ConfigError && (error.code === 'CONFIG_NOT_FOUND' || error.file === folder)) throw withCode(locate(at, error.expected), error.code);
    throw error;
  }
}

/** Skill refs are relative to the file that holds them; make them absolute once, at load. */
export function absolutizeSkillRefs(build: AgentBuild, baseDir: string): void {
  for (const skill of buildAgent(build).skills ?? []) {
    if (skill.ref !== undefined && !isAbsolute(skill.ref)) skill.ref = resolve(baseDir, skill.ref);
  }
}
