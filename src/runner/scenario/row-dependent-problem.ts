import type { ConfigError } from '../../config/errors.js';
import { formatPath } from '../../config/format-path.js';
import type { PathSegments } from '../../config/source.js';
import { ANY_TEMPLATE } from './dataset.js';
import { stringPaths } from './template-type-hint.js';

/**
 * Which problems of a scenario expanded from a dataset can differ from row to row: those at a
 * string using `{{ vars.* }}`, inside one, or around one (a list whose item is rendered). A
 * problem elsewhere (a field written without a template) is the same for every row, said once.
 * `roots` are the entry's and its defaults' paths: every template is inside them, so a problem
 * located there (a missing key) is none of the row's.
 */
export function rowDependence(templates: readonly { value: unknown; at: PathSegments }[]): (problem: ConfigError) => boolean {
  const templated = new Set<string>();
  for (const { value, at } of templates) stringPaths(value, at, ANY_TEMPLATE, templated);
  const roots = new Set(templates.map(({ at }) => formatPath(at)));
  return (problem) => {
    const path = problem.path;
    if (path === undefined) return false;
    for (const template of templated) {
      if (template === path || within(path, template)) return true;
      if (!roots.has(path) && within(template, path)) return true;
    }
    return false;
  };
}

/** Whether `path` is below `parent` (`a.b[0]` is below `a.b` and `a`, not below `a.bc`). */
function within(path: string, parent: string): boolean {
  if (parent === '') return path !== '';
  return path.startsWith(parent) && (path[parent.length] === '.' || path[parent.length] === '[');
}
