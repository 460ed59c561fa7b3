import type { PathSegments } from './source.js';
import { subschemaValueProblem } from './subschema-value.js';

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a list of subschemas (`items` may also be one schema). */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value is one subschema. */
const SCHEMA_ONES = ['items', 'additionalItems', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'];

/** A `default` that does not fit the schema it sits in: where (ending in `default`) and why. */
export interface DefaultProblem {
  path: PathSegments;
  expected: string;
}

/**
 * The `default`s of a user JSON Schema (a tool's `parameters`) that do not fit their own
 * schema. Such a default fills every call that omits the argument and then fails that call
 * with an error blaming the caller (docs/formats.md, Tools), so it is refused at load.
 * `root` must already be a valid JSON Schema (userSchemaProblem).
 */
export function schemaDefaultProblems(root: Record<string, unknown>): DefaultProblem[] {
  const problems: DefaultProblem[] = [];
  const visit = (schema: unknown, path: PathSegments) => {
    if (!isRecord(schema)) return;
    if (schema.default !== undefined) {
      const problem = subschemaValueProblem(schema, root, schema.default);
      if (problem) problems.push({ path: [...path, 'default'], expected: `default does not fit its own schema: ${problem}` });
    }
    for (const key of SCHEMA_MAPS) {
      const map = schema[key];
      if (isRecord(map)) for (const [name, sub] of Object.entries(map)) visit(sub, [...path, key, name]);
    }
    for (const key of SCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((sub, index) => visit(sub, [...path, key, index]));
    }
    for (const key of SCHEMA_ONES) visit(schema[key], [...path, key]);
  };
  visit(root, []);
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
