import type { PathSegments } from './source.js';

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is a list of subschemas (`items` may also be one schema). */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value is one subschema. */
const SCHEMA_ONES = ['items', 'additionalItems', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'];

/**
 * Calls `visit` with every object schema in a user JSON Schema, the root first, each with its
 * path from the root (`['properties', 'x']`). Values of `default`, `enum`, `const` and
 * `examples` are data, never walked.
 */
export function forEachSubschema(root: unknown, visit: (schema: Record<string, unknown>, path: PathSegments) => void): void {
  const walk = (schema: unknown, path: PathSegments) => {
    if (!isRecord(schema)) return;
    visit(schema, path);
    for (const key of SCHEMA_MAPS) {
      const map = schema[key];
      if (isRecord(map)) for (const [name, sub] of Object.entries(map)) walk(sub, [...path, key, name]);
    }
    for (const key of SCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) list.forEach((sub, index) => walk(sub, [...path, key, index]));
    }
    for (const key of SCHEMA_ONES) walk(schema[key], [...path, key]);
  };
  walk(root, []);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
