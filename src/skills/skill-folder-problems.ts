import { resolve } from 'node:path';
import { ConfigError, ConfigErrors, withCode } from '../config/errors.js';
import { loadSkillFolder } from './load-skill-folder.js';

/**
 * Why `folder` is not a skill that can be delivered, as problems to list: a folder that is not
 * there (or holds no SKILL.md) at the place that names it (`reference`), each problem of its
 * SKILL.md at that file (and line), so every one is listed and counted on its own line.
 */
export function skillFolderProblems(folder: string, reference: (expected: string) => ConfigError): ConfigError[] {
  try {
    loadSkillFolder(folder);
    return [];
  } catch (error) {
    if (error instanceof ConfigErrors) return [...error.errors];
    // SKILL.md's own problems (a syntax error, over the size limit) keep its file (and line).
    if (error instanceof ConfigError && (error.line !== undefined || error.file !== resolve(folder))) return [error];
    // Moved to the reference with its own code: a missing folder stays CONFIG_NOT_FOUND (docs/skills.md).
    if (error instanceof ConfigError) return [withCode(reference(error.expected), error.code)];
    return [reference(error instanceof Error ? error.message : String(error))];
  }
}
