import type { Locator } from '../../config/assert-format.js';
import type { ConfigError } from '../../config/errors.js';
import { locatedSchemaProblems } from '../../config/user-schema-problem.js';
import { schemaDefaultProblems } from '../../config/schema-default-problems.js';
import { unknownFormatProblems } from '../../config/schema-format-problems.js';
import type { PathSegments } from '../../config/source.js';

/**
 * The load-time problems of a tool's `parameters` (docs/formats.md, Tools), located under `at`
 * (the tool): not an object schema, each way it is not a valid JSON Schema, or each `format` no standard format
 * has and each `default` that does not fit its own schema.
 */
export function toolParametersProblems(parameters: Record<string, unknown>, at: PathSegments, locate: Locator): ConfigError[] {
  if (parameters.type !== undefined && parameters.type !== 'object') {
    return [locate([...at, 'parameters', 'type'], 'tool parameters must be a JSON Schema of type "object"')];
  }
  // Every problem of the schema, each at the bad value inside `parameters` (docs/cli.md, validate).
  const invalid = locatedSchemaProblems(parameters, 'tool', [...at, 'parameters'], locate);
  if (invalid.length) return invalid;
  return [
    ...unsatisfiableRequired(parameters, at, locate),
    ...[...unknownFormatProblems(parameters), ...schemaDefaultProblems(parameters)].map(({ path, expected }) =>
      locate([...at, 'parameters', ...path], expected),
    ),
  ];
}

/**
 * Each `required` name that `properties` lacks while `additionalProperties: false` refuses any
 * other: no call can give it nor leave it out, so every call would fail (docs/formats.md, Tools).
 */
function unsatisfiableRequired(parameters: Record<string, unknown>, at: PathSegments, locate: Locator): ConfigError[] {
  const { properties, required, additionalProperties, patternProperties } = parameters;
  if (additionalProperties !== false || patternProperties !== undefined || !Array.isArray(required)) return [];
  const listed = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  return required.flatMap((name, index) =>
    typeof name === 'string' && !listed.includes(name)
      ? [
          locate(
            [...at, 'parameters', 'required', index],
            `"${name}" is required but not in properties, and additionalProperties: false refuses it, so no call could succeed; add "${name}" to properties or take it out of required`,
          ),
        ]
      : [],
  );
}
