import { forEachSubschema } from './for-each-subschema.js';
import type { PathSegments } from './source.js';
import { subschemaValueProblem } from './subschema-value.js';

/** A problem inside a user JSON Schema: where (from the schema's root) and what was expected. */
export interface SchemaPartProblem {
  path: PathSegments;
  expected: string;
}

/**
 * The `default`s of a tool's `parameters` that do not fit their own schema. Such a default
 * fills every call that omits the argument and then fails that call with an error blaming the
 * caller (docs/formats.md, Tools), so it is refused at load. `root` must already be a valid
 * JSON Schema (userSchemaProblem).
 */
export function schemaDefaultProblems(root: Record<string, unknown>): SchemaPartProblem[] {
  const problems: SchemaPartProblem[] = [];
  forEachSubschema(root, (schema, path) => {
    if (schema.default === undefined) return;
    const problem = subschemaValueProblem(schema, root, schema.default);
    if (problem) problems.push({ path: [...path, 'default'], expected: `default does not fit its own schema: ${problem}` });
  });
  return problems;
}
