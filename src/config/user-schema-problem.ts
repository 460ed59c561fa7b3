import type { Locator } from './assert-format.js';
import type { ConfigError } from './errors.js';
import { compileUserSchema, metaSchemaErrors, type UserSchemaKind } from './json-schema.js';
import { reduceSchemaErrors } from './reduce-schema-errors.js';
import { exponentialRegexProblem } from './safe-regex.js';
import { formatPath, type PathSegments } from './source.js';
import { unknownKeywordProblems } from './schema-keywords.js';

/** One problem of a user schema: `path` is inside the schema; `atKey` when it names a key that should not be there. */
export interface UserSchemaProblem {
  path: PathSegments;
  expected: string;
  atKey: boolean;
}

/**
 * Every problem of a user schema (tool parameters, an `output` schema, a custom check's params)
 * that keeps it from being a valid JSON Schema, each at its own path: the meta-schema's, said as
 * the format checks say theirs (`expected one of "array" | ... | "string", got "strin" (did you
 * mean "string"?)`), each keyword no validator reads (unless `unknownKeywords: 'allow'`, for
 * schemas an MCP server gives) and each `pattern` that could stall; with none of these, whatever
 * compiling it reports (an unresolvable `$ref`), at the schema itself.
 */
export function schemaValidityProblems(
  schema: unknown,
  kind: UserSchemaKind = 'plain',
  options: { unknownKeywords?: 'refuse' | 'allow' } = {},
): UserSchemaProblem[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [{ path: [], expected: 'expected a JSON Schema object', atKey: false }];
  const problems: UserSchemaProblem[] = reduceSchemaErrors(metaSchemaErrors(schema), schema).map(({ path, expected, atKey }) => ({ path, expected, atKey }));
  // A keyword no validator reads is a typo in a file someone wrote; a server's schema may carry its own.
  if (options.unknownKeywords !== 'allow') problems.push(...unknownKeywordProblems(schema).map((problem) => ({ ...problem, atKey: true })));
  problems.push(...schemaPatternProblems(schema, []));
  if (problems.length) return problems;
  try {
    compileUserSchema(schema, kind);
    return [];
  } catch (error) {
    return [{ path: [], expected: (error as Error).message, atKey: false }];
  }
}

/**
 * Every problem schemaValidityProblems finds, each located at its value inside the schema, which
 * sits at `at` (a tool's `parameters`, an `output` check's `schema`); one only compiling finds is
 * located at the schema itself (docs/cli.md, validate).
 */
export function locatedSchemaProblems(schema: unknown, kind: UserSchemaKind, at: PathSegments, locate: Locator): ConfigError[] {
  return schemaValidityProblems(schema, kind).map(({ path, expected, atKey }) =>
    locate([...at, ...path], path.length ? expected : `expected a valid JSON Schema: ${expected}`, atKey),
  );
}

/**
 * Why a user schema is not a valid JSON Schema, or null: its first problem (schemaValidityProblems),
 * with where in the schema it is (`at properties.id.type, expected one of ...`).
 */
export function userSchemaProblem(schema: unknown, kind: UserSchemaKind = 'plain', options: { unknownKeywords?: 'refuse' | 'allow' } = {}): string | null {
  const [first] = schemaValidityProblems(schema, kind, options);
  if (!first) return null;
  return first.path.length ? `at ${formatPath(first.path)}, ${first.expected}` : first.expected;
}

// Values that are data, not schemas: a "pattern" key inside them is not a regex.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * Each `pattern` or `patternProperties` key that could backtrack exponentially: Ajv runs them on
 * the backtracking engine (with the `u` flag, which the linear-time fallback lacks), on
 * arguments a model sends, so one could stall the run for minutes (docs/security.md).
 */
function schemaPatternProblems(node: unknown, path: PathSegments): UserSchemaProblem[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((item, index) => schemaPatternProblems(item, [...path, index]));
  return Object.entries(node).flatMap(([key, value]): UserSchemaProblem[] => {
    if (DATA_KEYWORDS.has(key)) return [];
    const at = [...path, key];
    const problems: UserSchemaProblem[] = [];
    if (key === 'pattern' && typeof value === 'string') {
      const problem = exponentialRegexProblem(value);
      if (problem) problems.push({ path: at, expected: problem, atKey: false });
    }
    if (key === 'patternProperties' && value && typeof value === 'object') {
      for (const name of Object.keys(value)) {
        const problem = exponentialRegexProblem(name);
        if (problem) problems.push({ path: [...at, name], expected: problem, atKey: true });
      }
    }
    return [...problems, ...schemaPatternProblems(value, at)];
  });
}
