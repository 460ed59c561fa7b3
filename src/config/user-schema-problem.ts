import { compileUserSchema, metaSchemaErrors, type UserSchemaKind } from './json-schema.js';
import { reduceSchemaErrors } from './reduce-schema-errors.js';
import { exponentialRegexProblem } from './safe-regex.js';
import { formatPath, type PathSegments } from './source.js';
import { unknownKeywordProblem } from './schema-keywords.js';

/**
 * Why a user schema (tool parameters, an `output` schema, a custom check's params) is not a valid
 * JSON Schema, or null: the meta-schema's first problem, said as the format checks say theirs
 * (`at properties.id.type, expected one of "array" | ... | "string", got "strin" (did you mean
 * "string"?)`), a keyword no validator reads (unless `unknownKeywords: 'allow'`, for schemas an
 * MCP server gives), then whatever compiling it reports (a bad `pattern`, an unresolvable `$ref`).
 */
export function userSchemaProblem(schema: unknown, kind: UserSchemaKind = 'plain', options: { unknownKeywords?: 'refuse' | 'allow' } = {}): string | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return 'expected a JSON Schema object';
  const [first] = reduceSchemaErrors(metaSchemaErrors(schema), schema);
  if (first) return first.path.length ? `at ${formatPath(first.path)}, ${first.expected}` : first.expected;
  // A keyword no validator reads is a typo in a file someone wrote; a server's schema may carry its own.
  const unknown = options.unknownKeywords === 'allow' ? null : unknownKeywordProblem(schema);
  if (unknown) return unknown;
  const stall = schemaPatternProblem(schema, []);
  if (stall) return stall;
  try {
    compileUserSchema(schema, kind);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

// Values that are data, not schemas: a "pattern" key inside them is not a regex.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * The first `pattern` or `patternProperties` key that could backtrack exponentially: Ajv runs
 * them on the backtracking engine (with the `u` flag, which the linear-time fallback lacks), on
 * arguments a model sends, so one could stall the run for minutes (docs/security.md).
 */
function schemaPatternProblem(node: unknown, path: PathSegments): string | null {
  if (!node || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) {
      const problem = schemaPatternProblem(item, [...path, index]);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) continue;
    const at = [...path, key];
    if (key === 'pattern' && typeof value === 'string') {
      const problem = exponentialRegexProblem(value);
      if (problem) return `at ${formatPath(at)}, ${problem}`;
    }
    if (key === 'patternProperties' && value && typeof value === 'object') {
      for (const name of Object.keys(value)) {
        const problem = exponentialRegexProblem(name);
        if (problem) return `at ${formatPath(at)}, ${problem}`;
      }
    }
    const problem = schemaPatternProblem(value, at);
    if (problem) return problem;
  }
  return null;
}
