import { closestWord } from './did-you-mean.js';
import type { PathSegments } from './source.js';

/**
 * The keywords a JSON Schema in an agentcheck file may use: JSON Schema's (draft-07 and 2020-12,
 * annotations included) and OpenAPI's that tool schemas often carry (`nullable`, `example`).
 * Those in LATER_DRAFT are known but refused.
 */
const KEYWORDS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$comment',
  '$defs',
  'definitions',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$vocabulary',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'deprecated',
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'items',
  'additionalItems',
  'prefixItems',
  'contains',
  'unevaluatedItems',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'dependencies',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'unevaluatedProperties',
  'dependentSchemas',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'nullable',
  'example',
  'discriminator',
  'externalDocs',
  'xml',
]);
/**
 * Keywords of drafts 2019-09 and 2020-12 that the draft-07 validator agentcheck compiles schemas
 * with does not read, each with what draft-07 writes instead: refused, like an unknown keyword,
 * since its constraint would not hold (docs/formats.md, Tools).
 */
const LATER_DRAFT: Record<string, { draft: string; instead: string }> = {
  prefixItems: { draft: '2020-12', instead: 'write "items" as a list of schemas, with "additionalItems" for the items after them' },
  dependentRequired: { draft: '2019-09', instead: 'write "dependencies" with a list of property names' },
  dependentSchemas: { draft: '2019-09', instead: 'write "dependencies" with a schema' },
  minContains: { draft: '2019-09', instead: 'draft-07 has only "contains" (at least one item matches)' },
  maxContains: { draft: '2019-09', instead: 'draft-07 has only "contains" (at least one item matches)' },
  unevaluatedProperties: { draft: '2019-09', instead: 'write "additionalProperties" beside the "properties" it applies to' },
  unevaluatedItems: { draft: '2019-09', instead: 'write "additionalItems" beside a list of "items"' },
  $recursiveRef: { draft: '2019-09', instead: 'write "$ref"' },
  $dynamicRef: { draft: '2020-12', instead: 'write "$ref"' },
};
// Keywords whose value is a schema, a list of schemas, or a map of names to schemas.
const SCHEMA = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

/**
 * Each keyword of a user's JSON Schema that no validator reads (`requried`, `propertes`,
 * `minimun`, or a draft 2020-12 one such as `prefixItems`): ignored, its constraint would be lost
 * without a word (docs/formats.md). Vendor keywords start with `x-`. Each is located at its key
 * (`path`, relative to the schema).
 */
export function unknownKeywordProblems(schema: unknown, path: PathSegments = []): Array<{ path: PathSegments; expected: string }> {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [];
  return Object.entries(schema).flatMap(([key, value]) => {
    const at = [...path, key];
    if (Object.hasOwn(LATER_DRAFT, key)) {
      return [
        {
          path: at,
          expected: `JSON Schema keyword "${key}" is from draft ${LATER_DRAFT[key].draft}; agentcheck reads schemas as draft-07, which ignores it, so its constraint would not hold: ${LATER_DRAFT[key].instead}`,
        },
      ];
    }
    if (!KEYWORDS.has(key) && !key.startsWith('x-')) {
      const near = closestWord(key, KEYWORDS);
      const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
      return [
        {
          path: at,
          expected: `unknown JSON Schema keyword "${key}"${hint}: validators ignore it, so its constraint would not hold (vendor keywords start with "x-")`,
        },
      ];
    }
    return subschemasOf(key, value, at).flatMap(([subschema, where]) => unknownKeywordProblems(subschema, where));
  });
}

/** The schemas a keyword's value holds, with their paths: one, a list of them, or a map of names to them. */
function subschemasOf(key: string, value: unknown, at: PathSegments): Array<[unknown, PathSegments]> {
  const listed = (items: unknown[]) => items.map((item, index): [unknown, PathSegments] => [item, [...at, index]]);
  if (SCHEMA.has(key) || (key === 'items' && !Array.isArray(value))) return [[value, at]];
  // `items` may be a list of schemas (draft-07).
  if ((SCHEMA_LIST.has(key) || key === 'items') && Array.isArray(value)) return listed(value);
  // `dependencies` maps names to schemas, or to lists of names (no schemas there).
  if ((SCHEMA_MAP.has(key) || key === 'dependencies') && value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([name, item]): Array<[unknown, PathSegments]> => (Array.isArray(item) ? [] : [[item, [...at, name]]]));
  }
  return [];
}
