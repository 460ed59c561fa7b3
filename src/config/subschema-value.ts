import { userSchemaProblems } from './json-schema.js';
import { formatPath } from './source.js';

/**
 * Why `value` does not fit `schema`, a subschema of a tool's `parameters` `root` (a property's
 * schema, say), checked as tool arguments are (standard formats included), or null. The root's `$defs` / `definitions` travel with the
 * subschema, so local `$ref`s resolve; a subschema that still cannot be compiled on its own is
 * left to the call-time check (null).
 */
export function subschemaValueProblem(schema: Record<string, unknown>, root: Record<string, unknown>, value: unknown): string | null {
  let standalone = schema;
  if (schema !== root && JSON.stringify(schema).includes('"$ref"')) {
    standalone = { ...schema };
    for (const key of ['$defs', 'definitions']) if (root[key] !== undefined && standalone[key] === undefined) standalone[key] = root[key];
  }
  let problems;
  try {
    problems = userSchemaProblems(standalone, value, 'tool');
  } catch {
    return null;
  }
  if (!problems.length) return null;
  const [first] = problems;
  const where = formatPath(first.path);
  return where ? `${where}: ${first.expected}` : first.expected;
}
