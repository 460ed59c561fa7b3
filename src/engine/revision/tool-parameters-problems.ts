import type { Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { userSchemaProblem } from '../../config/json-schema.js';
import { schemaDefaultProblems } from '../../config/schema-default-problems.js';
import type { PathSegments } from '../../config/source.js';

/**
 * The load-time problems of a tool's `parameters` (docs/formats.md, Tools), located under `at`
 * (the tool): not an object schema, not a valid JSON Schema, or a `default` that does not fit
 * its own schema (each such default reported).
 */
export function toolParametersProblems(parameters: Record<string, unknown>, at: PathSegments, locate: Locator): ConfigError[] {
  if (parameters.type !== undefined && parameters.type !== 'object') {
    return [locate([...at, 'parameters', 'type'], 'tool parameters must be a JSON Schema of type "object"')];
  }
  const problem = userSchemaProblem(parameters);
  if (problem) return [locate([...at, 'parameters'], `expected a valid JSON Schema: ${problem}`)];
  return schemaDefaultProblems(parameters).map(({ path, expected }) => locate([...at, 'parameters', ...path], expected));
}
