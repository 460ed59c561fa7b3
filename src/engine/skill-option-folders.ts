import { resolve } from 'node:path';
import type { Locator } from '../config/assert-format.js';
import type { ConfigError } from '../config/errors.js';
import { skillFolderProblems } from '../skills/skill-folder-problems.js';
import type { SkillOptions } from './skills-delivery.js';

/**
 * The folders of `skills.forced` and `skills.overlay` (testRun's request, invoke's and resume's
 * options) that are no skill to deliver, each located at its entry (`forced[0]`). Found before the
 * run, as `agentcheck run` finds them, not as a turn that ends in error; a relative folder is
 * read from process.cwd(), as delivery reads it.
 */
export function skillOptionFolderProblems(skills: SkillOptions, locate: Locator): ConfigError[] {
  return (['forced', 'overlay'] as const).flatMap((key) =>
    (skills[key] ?? []).flatMap((folder, index) => skillFolderProblems(resolve(folder), (expected) => locate([key, index], expected))),
  );
}
