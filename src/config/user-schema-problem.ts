import { compileUserSchema, metaSchemaErrors, type UserSchemaKind } from './json-schema.js';
import { reduceSchemaErrors } from './reduce-schema-errors.js';
import { formatPath } from './source.js';

/**
 * Why a user schema (tool parameters, an `output` schema, a custom check's params) is not a valid
 * JSON Schema, or null: the meta-schema's first problem, said as the format checks say theirs
 * (`at properties.id.type, expected one of "array" | ... | "string", got "strin" (did you mean
 * "string"?)`), then whatever compiling it reports (a bad `pattern`, an unresolvable `$ref`).
 */
export function userSchemaProblem(schema: unknown, kind: UserSchemaKind = 'plain'): string | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return 'expected a JSON Schema object';
  const [first] = reduceSchemaErrors(metaSchemaErrors(schema), schema);
  if (first) return first.path.length ? `at ${formatPath(first.path)}, ${first.expected}` : first.expected;
  try {
    compileUserSchema(schema, kind);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
