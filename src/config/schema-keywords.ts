import { closestWord } from './did-you-mean.js';
import { formatPath, type PathSegments } from './source.js';

/**
 * The keywords a JSON Schema in an agentcheck file may use: JSON Schema's (draft-07 and 2020-12,
 * annotations included) and OpenAPI's that tool schemas often carry (`nullable`, `example`).
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
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

/**
 * The first keyword of a user's JSON Schema that no validator reads (`requried`, `propertes`,
 * `minimun`): ignored, its constraint would be lost without a word (docs/formats.md). Vendor
 * keywords start with `x-`. Null when every keyword is known.
 */
export function unknownKeywordProblem(schema: unknown, path: PathSegments = []): string | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return null;
  for (const [key, value] of Object.entries(schema)) {
    const at = [...path, key];
    if (!KEYWORDS.has(key) && !key.startsWith('x-')) {
      const near = closestWord(key, KEYWORDS);
      const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
      return `at ${formatPath(at)}, unknown JSON Schema keyword "${key}"${hint}: validators ignore it, so its constraint would not hold (vendor keywords start with "x-")`;
    }
    const problem = SCHEMA.has(key) ? unknownKeywordProblem(value, at) : keywordsIn(key, value, at);
    if (problem) return problem;
  }
  return null;
}

function keywordsIn(key: string, value: unknown, at: PathSegments): string | null {
  if (key === 'items' || key === 'dependencies') {
    // items: a schema or (draft-07) a list of them; dependencies: names to schemas or to lists of names.
    if (Array.isArray(value)) return key === 'items' ? firstProblem(value.map((item, index) => [item, [...at, index]])) : null;
    if (key === 'items') return unknownKeywordProblem(value, at);
  }
  if (SCHEMA_LIST.has(key) && Array.isArray(value)) return firstProblem(value.map((item, index) => [item, [...at, index]]));
  if ((SCHEMA_MAP.has(key) || key === 'dependencies') && value && typeof value === 'object' && !Array.isArray(value)) {
    return firstProblem(Object.entries(value).map(([name, item]) => [item, [...at, name]]));
  }
  return null;
}

function firstProblem(schemas: Array<[unknown, PathSegments]>): string | null {
  for (const [schema, at] of schemas) {
    const problem = unknownKeywordProblem(schema, at);
    if (problem) return problem;
  }
  return null;
}
