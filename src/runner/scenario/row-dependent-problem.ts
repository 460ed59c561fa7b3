import type { ConfigError } from '../../config/errors.js';
import { isKeyProblem, type PathSegments } from '../../config/source.js';
import { ANY_TEMPLATE } from './dataset.js';
import { stringPaths } from './template-type-hint.js';

/** The paths (as a ConfigError names them) of the strings using `{{ vars.* }}` in an entry and its defaults. */
export function templatedPaths(templates: readonly { value: unknown; at: PathSegments }[]): ReadonlySet<string> {
  const templated = new Set<string>();
  for (const { value, at } of templates) stringPaths(value, at, ANY_TEMPLATE, templated);
  return templated;
}

/**
 * Whether a problem of a scenario expanded from a dataset is its row's own (docs/formats.md,
 * "Datasets"): one at a templated string's value or inside what it renders into (a JSONL
 * object), which each row that has it is told. A problem about a key there (an argument name
 * the tool lacks), around one (a judge check without a grader, its rubric templated) or
 * elsewhere is not caused by the row's value: the same text is said once.
 */
export function isRowsOwnProblem(problem: ConfigError, templated: ReadonlySet<string>): boolean {
  return !isKeyProblem(problem) && atTemplatedValue(problem.path, templated);
}

/** Whether `path` is a templated string or below one (`a.b[0]` is below `a.b`, not below `a.bc`). */
export function atTemplatedValue(path: string | undefined, templated: ReadonlySet<string>): boolean {
  if (path === undefined) return false;
  if (templated.has(path)) return true;
  for (const template of templated) if (within(path, template)) return true;
  return false;
}

function within(path: string, parent: string): boolean {
  if (parent === '') return path !== '';
  return path.startsWith(parent) && (path[parent.length] === '.' || path[parent.length] === '[');
}
