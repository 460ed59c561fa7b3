import { ConfigError } from '../../config/errors.js';
import type { Revision } from './types.js';

/**
 * Refuses what is not a loaded revision (a caller passing the build object itself): said plainly,
 * naming the function, rather than as a TypeError or a missing `id` deep inside.
 */
export function assertRevision(given: unknown, caller: string): asserts given is Revision {
  const build = given && typeof given === 'object' && 'build' in given ? (given as Revision).build : undefined;
  if (!build || typeof build !== 'object') {
    throw new ConfigError(
      { file: caller },
      'expected a revision as its first argument: loadAgentBuild(file) or revisionFromValue(value) makes one (not the build object itself)',
    );
  }
}
