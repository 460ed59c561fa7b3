import type { Locator } from '../config/assert-format.js';
import { quoteCapped } from '../config/cap-text.js';
import { didYouMean } from '../config/did-you-mean.js';
import { throwConfigErrors, type ConfigError } from '../config/errors.js';
import type { PathSegments } from '../config/source.js';
import { EMITTED_ATTRIBUTE_KEYS, OWN_ATTRIBUTE_NAMESPACES } from './conventions.js';
import { GENAI_SEMCONV_KEYS } from './genai-semconv-keys.js';
import { ownConditionProblems } from './own-attribute-conditions.js';
import { isListedValue, ownAttributeRule } from './own-attribute-values.js';
import type { QueryCondition, SpanQuery } from './query-types.js';

/**
 * Refuses each (validated) query condition on an attribute key in the agentcheck.* or gen_ai.*
 * namespace that agentcheck never writes (and, for gen_ai.*, that the GenAI conventions do not
 * define), and each comparing one of agentcheck's typed attributes with a value it never holds
 * (own-attribute-conditions.ts): such a condition can never match, so a `count: {equals: 0}`
 * check would pass whatever the run did. Keys of other namespaces (from MCP servers, tools or
 * other instrumentation) are left alone. `present`: what the spans being queried hold (a
 * spans.jsonl file's), always accepted: an external agent's own spans may carry keys of these
 * namespaces that agentcheck does not write, and an older file other values.
 */
export function validateOwnAttributeKeys(query: SpanQuery, locate: Locator, present?: PresentAttributes): void {
  const problems: ConfigError[] = [];
  if (query.filtering) walk(query.filtering, ['filtering'], locate, problems, present);
  throwConfigErrors(problems);
}

/** What the spans being queried hold: their attribute keys, and values of agentcheck's typed attributes it never writes. */
export interface PresentAttributes {
  keys: ReadonlySet<string>;
  /** Per typed attribute (own-attribute-values.ts), the values spans hold there that agentcheck does not write. */
  unlisted: ReadonlyMap<string, ReadonlySet<unknown>>;
}

/** The attribute keys some span of `spans` carries, and the unlisted values of agentcheck's typed ones. */
export function presentAttributes(spans: ReadonlyArray<{ attributes: Record<string, unknown> }>): PresentAttributes {
  const keys = new Set<string>();
  const unlisted = new Map<string, Set<unknown>>();
  for (const span of spans) {
    for (const key of Object.keys(span.attributes)) {
      keys.add(key);
      const rule = ownAttributeRule(key);
      const value = span.attributes[key];
      if (!rule || isListedValue(rule, value)) continue;
      let values = unlisted.get(key);
      if (!values) unlisted.set(key, (values = new Set()));
      values.add(value);
    }
  }
  return { keys, unlisted };
}

function walk(filter: unknown, at: PathSegments, locate: Locator, problems: ConfigError[], present: PresentAttributes | undefined): void {
  const record = filter as Record<string, unknown>;
  if (Array.isArray(record.conditions)) {
    record.conditions.forEach((condition, index) => walk(condition, [...at, 'conditions', index], locate, problems, present));
    return;
  }
  const key = record.key;
  if (record.field !== 'attributes' || typeof key !== 'string') return;
  if (EMITTED_ATTRIBUTE_KEYS.has(key)) {
    valueProblems(record, at, locate, problems, present);
    return;
  }
  if (!OWN_ATTRIBUTE_NAMESPACES.some((namespace) => key.startsWith(namespace)) || present?.keys.has(key)) return;
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

/** Each problem of a condition on one of agentcheck's typed attributes, at its value (or the list item). */
function valueProblems(
  condition: Record<string, unknown>,
  at: PathSegments,
  locate: Locator,
  problems: ConfigError[],
  present: PresentAttributes | undefined,
): void {
  const unlisted = present?.unlisted.get(condition.key as string);
  for (const problem of ownConditionProblems(condition as unknown as QueryCondition, unlisted && [...unlisted])) {
    problems.push(locate(problem.item === undefined ? [...at, 'value'] : [...at, 'value', problem.item], problem.message));
  }
}
