import type { Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { userSchemaProblem } from '../../config/user-schema-problem.js';
import { schemaDefaultProblems } from '../../config/schema-default-problems.js';
import { unknownFormatProblems } from '../../config/schema-format-problems.js';
import type { PathSegments } from '../../config/source.js';

/**
 * The load-time problems of a tool's `parameters` (docs/formats.md, Tools), located under `at`
 * (the tool): not an object schema, not a valid JSON Schema, or each `format` no standard format
 * has and each `default` that does not fit its own schema.
 */
export function toolParametersProblems(parameters: Record<string, unknown>, at: PathSegments, locate: Locator): ConfigError[] {
  if (parameters.type !== undefined && parameters.type !== 'object') {
    return [locate([...at, 'parameters', 'type'], 'tool parameters must be a JSON Schema of type "object"')];
  }
  const problem = userSchemaProblem(parameters, 'tool');
  if (problem) return [locate([...at, 'parameters'], `expected a valid JSON Schema: ${problem}`)];
  return [...unknownFormatProblems(parameters), ...schemaDefaultProblems(parameters)].map(({ path, expected }) =>
    locate([...at, 'parameters', ...path], expected),
  );
}
