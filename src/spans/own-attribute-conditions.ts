import { quoteCapped, quoteJson } from '../config/cap-text.js';
import { closestWord, didYouMean } from '../config/did-you-mean.js';
import { couldMatchDigitText } from '../config/regex-digit-text.js';
import { describeOwnValue, isWholeNumber, ownAttributeRule, type OwnAttributeValue } from './own-attribute-values.js';
import { compileCondition, isNumeric } from './query-conditions.js';
import type { QueryCondition } from './query-types.js';
import type { SpanRecord } from './span-record.js';

/** What is wrong with a condition: `item` is the list item it is about (`in`, `not_in`), else the whole value. */
export interface OwnValueProblem {
  item?: number;
  message: string;
}

const NEGATED = new Set(['is_not', 'neq', 'not_in']);
const EQUALITY = new Set(['is', 'is_not', 'eq', 'neq']);
const LISTS = new Set(['in', 'not_in']);
const ORDERED = new Set(['gt', 'gte', 'lt', 'lte']);
const OPERATOR_WORDS: Readonly<Record<string, string>> = {
  contains: 'contains',
  startswith: 'starts with',
  endswith: 'ends with',
  matches: 'matches',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
};

/**
 * Why a (validated) condition on one of agentcheck's typed attributes (own-attribute-values.ts)
 * could never match, or, for is_not / neq / not_in, would hold for every span that has the
 * attribute: one problem per list item that could equal nothing, else one for the value; [] when
 * it can tell spans apart. It asks the query engine itself (compileCondition) of each value the
 * attribute can hold, so eq's "3" = 3 and startswith's booleans as text are judged as a run's
 * spans are. `unlisted`: values a spans file holds there that agentcheck does not write (an
 * older version's, another tracer's), which a condition may match too.
 */
export function ownConditionProblems(condition: QueryCondition, unlisted: readonly unknown[] = []): OwnValueProblem[] {
  const rule = condition.key === undefined ? undefined : ownAttributeRule(condition.key);
  if (!rule || condition.value === undefined) return [];
  const subject = `attribute ${quoteCapped(condition.key as string)} ${describeOwnValue(rule)} when agentcheck writes it`;
  if ('words' in rule && rule.others) return nearMissProblems(condition, rule.words, rule.others, unlisted, subject);
  if ('type' in rule && rule.type === 'number') return unlisted.length ? [] : numberProblems(condition, rule.min, subject);
  return listedProblems(condition, rule, unlisted, subject);
}

/** A boolean or listed-words attribute: every value it can hold is tried. */
function listedProblems(condition: QueryCondition, rule: OwnAttributeValue, unlisted: readonly unknown[], subject: string): OwnValueProblem[] {
  const { operator: op, value } = condition;
  const candidates = [...('words' in rule ? rule.words : [true, false]), ...unlisted];
  const near = (item: unknown) => ('words' in rule && typeof item === 'string' ? didYouMean(item, rule.words) : '');
  if (LISTS.has(op)) {
    return (value as unknown[]).flatMap((item, index) =>
      holding({ ...condition, operator: 'in', value: [item] }, candidates).length
        ? []
        : [{ item: index, message: `${subject}, ${consequence(op)}: got ${quoteJson(item)}${near(item)}` }],
    );
  }
  const held = holding(condition, candidates).length;
  if (NEGATED.has(op) ? held < candidates.length : held > 0) return [];
  if (EQUALITY.has(op)) return [{ message: `${subject}, ${consequence(op)}: got ${shown(op, value)}${near(value)}` }];
  return [{ message: `${subject}, and ${noneSatisfies(rule, op, value)}, ${consequence(op)}` }];
}

/** Why no value of a boolean or listed-words attribute satisfies a text or ordering operator. */
function noneSatisfies(rule: OwnAttributeValue, op: string, value: unknown): string {
  if ('words' in rule) return `none of them ${OPERATOR_WORDS[op]} ${quoteJson(value)}`;
  if (op === 'contains') return 'operator "contains" reads only text and lists, never a boolean';
  if (ORDERED.has(op)) return `operator "${op}" orders only numbers and text, never a boolean`;
  return `neither true nor false ${OPERATOR_WORDS[op]} ${quoteJson(value)}`;
}

/**
 * A count or index (a whole number from the rule's `min`): too many to try, so held to what
 * equals such a number (a number, or for eq, neq, in and not_in its text), what one orders
 * against (a bound at or below `min` leaves none below it), and its text, digits only.
 */
function numberProblems(condition: QueryCondition, min: number, subject: string): OwnValueProblem[] {
  const { operator: op, value } = condition;
  // is / is_not compare strictly; the others take a number written as text ("3").
  const equalsOne = (item: unknown) =>
    isWholeNumber(item, min) || (op !== 'is' && op !== 'is_not' && typeof item === 'string' && isNumeric(item) && isWholeNumber(Number(item), min));
  if (LISTS.has(op)) {
    return (value as unknown[]).flatMap((item, index) =>
      equalsOne(item) ? [] : [{ item: index, message: `${subject}, ${consequence(op)}: got ${quoteJson(item)}` }],
    );
  }
  if (EQUALITY.has(op)) return equalsOne(value) ? [] : [{ message: `${subject}, ${consequence(op)}: got ${shown(op, value)}` }];
  if (op === 'contains') return [{ message: `${subject}, and operator "contains" reads only text and lists, never a number, ${consequence(op)}` }];
  if (ORDERED.has(op)) {
    const numeric = typeof value === 'number' || (typeof value === 'string' && isNumeric(value));
    if (!numeric) return [{ message: `${subject}, and a number orders only against a number or numeric text, ${consequence(op)}: got ${quoteJson(value)}` }];
    // There is no largest value: only lt / lte can leave none, with a bound at or below the smallest.
    const bound = Number(value);
    const noneBelow = (op === 'lt' && bound <= min) || (op === 'lte' && bound < min);
    return noneBelow ? [{ message: `${subject}, and none ${OPERATOR_WORDS[op]} ${quoteJson(value)}, ${consequence(op)}` }] : [];
  }
  // A whole number's text is digits only.
  if ((op === 'startswith' || op === 'endswith') && !/^\d*$/.test(String(value))) {
    return [{ message: `${subject}, written with digits only, ${consequence(op)}: got ${quoteJson(value)}` }];
  }
  if (op === 'matches' && !couldMatchDigitText(String(value))) {
    return [{ message: `${subject}, written with one digit or more, and the regex matches no such text, ${consequence(op)}: got ${quoteJson(value)}` }];
  }
  return [];
}

/**
 * An attribute other tracers write too, with names of their own beside the conventions' (an
 * external agent's GenAI spans): only a name a letter or two from a known one is a typo.
 */
function nearMissProblems(
  condition: QueryCondition,
  words: readonly string[],
  others: readonly string[],
  unlisted: readonly unknown[],
  subject: string,
): OwnValueProblem[] {
  const { operator: op, value } = condition;
  if (!EQUALITY.has(op) && !LISTS.has(op)) return [];
  const known = [...words, ...others];
  const items = LISTS.has(op) ? (value as unknown[]) : [value];
  return items.flatMap((item, index) => {
    if (typeof item !== 'string' || known.includes(item) || unlisted.includes(item)) return [];
    const near = closestWord(item, known);
    if (near === undefined) return [];
    const message =
      `${subject} (the GenAI conventions name ${others.join(', ')} too), ${consequence(op)}: got ${quoteJson(item)}; did you mean ${quoteCapped(near)}? ` +
      `(another tracer's own name this close to one of them is matched with operator "matches", value ${quoteJson(`^${escapeRegex(item)}$`)})`;
    return [LISTS.has(op) ? { item: index, message } : { message }];
  });
}

/** What follows from a value the attribute never holds, for this operator. */
function consequence(op: string): string {
  if (op === 'in') return 'so this item could never match';
  if (op === 'not_in') return 'so this item excludes no span';
  return NEGATED.has(op) ? 'so this condition would hold for every span that has it' : 'so this condition could never match';
}

/** The value as quoted; a list given to an operator that compares one value says which operator takes several. */
function shown(op: string, value: unknown): string {
  if (!Array.isArray(value)) return quoteJson(value);
  return `${quoteJson(value)} (a list equals only a list; use "${NEGATED.has(op) ? 'not_in' : 'in'}" for one of several)`;
}

/** The candidate values for which the condition holds, asked of the query engine. */
function holding(condition: QueryCondition, candidates: readonly unknown[]): unknown[] {
  const test = compileCondition(condition);
  const key = condition.key as string;
  // Only the attribute is read (getter of field "attributes"): a record of one attribute is enough.
  return candidates.filter((candidate) => test({ attributes: { [key]: candidate } } as unknown as SpanRecord));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
