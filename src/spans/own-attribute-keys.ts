import type { Locator } from '../config/assert-format.js';
import { quoteCapped, quoteJson } from '../config/cap-text.js';
import { didYouMean } from '../config/did-you-mean.js';
import { throwConfigErrors, type ConfigError } from '../config/errors.js';
import type { PathSegments } from '../config/source.js';
import { EMITTED_ATTRIBUTE_KEYS, OWN_ATTRIBUTE_NAMESPACES } from './conventions.js';
import { GENAI_SEMCONV_KEYS } from './genai-semconv-keys.js';
import { OWN_ATTRIBUTE_VALUES, ownValueProblem } from './own-attribute-values.js';
import type { SpanQuery } from './query-types.js';

/**
 * Refuses each (validated) query condition on an attribute key in the agentcheck.* or gen_ai.*
 * namespace that agentcheck never writes (and, for gen_ai.*, that the GenAI conventions do not
 * define): such a condition can never match, so a
 * `count: {equals: 0}` check would pass whatever the run did. Keys of other namespaces (from
 * MCP servers, tools or other instrumentation) are left alone. `present`: the keys the spans
 * being queried carry (a spans.jsonl file's), which are always accepted: an external agent's own
 * spans may carry keys of these namespaces that agentcheck does not write.
 */
export function validateOwnAttributeKeys(query: SpanQuery, locate: Locator, present?: ReadonlySet<string>): void {
  const problems: ConfigError[] = [];
  if (query.filtering) walk(query.filtering, ['filtering'], locate, problems, present);
  throwConfigErrors(problems);
}

/** The attribute keys some span of `spans` carries. */
export function attributeKeys(spans: ReadonlyArray<{ attributes: Record<string, unknown> }>): Set<string> {
  const keys = new Set<string>();
  for (const span of spans) for (const key of Object.keys(span.attributes)) keys.add(key);
  return keys;
}

function walk(filter: unknown, at: PathSegments, locate: Locator, problems: ConfigError[], present: ReadonlySet<string> | undefined): void {
  const record = filter as Record<string, unknown>;
  if (Array.isArray(record.conditions)) {
    record.conditions.forEach((condition, index) => walk(condition, [...at, 'conditions', index], locate, problems, present));
    return;
  }
  const key = record.key;
  if (record.field !== 'attributes' || typeof key !== 'string') return;
  if (EMITTED_ATTRIBUTE_KEYS.has(key)) {
    valueProblems(key, record, at, locate, problems);
    return;
  }
  if (!OWN_ATTRIBUTE_NAMESPACES.some((namespace) => key.startsWith(namespace)) || present?.has(key)) return;
  // A convention key other instrumentation writes (an external agent's own spans) can match.
  if (GENAI_SEMCONV_KEYS.has(key)) return;
  const own = [...EMITTED_ATTRIBUTE_KEYS].filter((name) => OWN_ATTRIBUTE_NAMESPACES.some((namespace) => name.startsWith(namespace))).sort();
  problems.push(
    locate(
      [...at, 'key'],
      `${present ? 'no span here carries' : 'agentcheck never writes'} attribute ${quoteCapped(key)}: agentcheck writes these ${OWN_ATTRIBUTE_NAMESPACES.map((n) => `${n}*`).join(' and ')} keys: ${own.join(', ')}${didYouMean(key, own)}`,
    ),
  );
}

/** Operators that compare the attribute's value as it is with the condition's (or each of its list's). */
const STRICT = new Set(['is', 'is_not', 'in', 'not_in']);

/**
 * A strict comparison of one of agentcheck's typed attributes with a value it never writes
 * (`agentcheck.tool.is_error is "true"`): it could never match (is_not, always), so refused.
 */
function valueProblems(key: string, condition: Record<string, unknown>, at: PathSegments, locate: Locator, problems: ConfigError[]): void {
  if (!STRICT.has(condition.operator as string)) return;
  const value = condition.value;
  const items = Array.isArray(value) ? value : [value];
  items.forEach((item, index) => {
    const problem = ownValueProblem(key, item);
    if (problem === null) return;
    const path = Array.isArray(value) ? [...at, 'value', index] : [...at, 'value'];
    const words = OWN_ATTRIBUTE_VALUES[key];
    const near = typeof item === 'string' && 'words' in words ? didYouMean(item, words.words) : '';
    problems.push(
      locate(path, `attribute ${quoteCapped(key)} ${problem} when agentcheck writes it, so this condition could never match: got ${quoteJson(item)}${near}`),
    );
  });
}
