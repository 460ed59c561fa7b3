import { checkFormat, type Locator } from '../../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { compileQuery, querySpans, validateQuery, type CompiledQuery, type SpanQuery } from '../../spans/query.js';
import { validateOwnAttributeKeys } from '../../spans/own-attribute-keys.js';
import { objectParams, PARAM } from '../check-params.js';
import { result, type Check } from './check.js';
import { nounFor, plural } from '../describe.js';

/** `spans: {query: {filtering, windowing}, count: {min, max, equals}}`. */
export interface SpansParams {
  query: SpanQuery;
  /** Default {min: 1}. */
  count?: { min?: number; max?: number; equals?: number };
}

const KIND = 'spans';
/** Span ids listed as evidence at most (a query may match thousands). */
const MAX_EVIDENCE = 20;
const schema = objectParams({ query: { type: 'object' }, count: objectParams({ min: PARAM.count, max: PARAM.count, equals: PARAM.count }) }, ['query']);
const compiled = new WeakMap<object, CompiledQuery>();

/** The number of spans matching a query_spans query (docs/query-spans.md) is within `count`. */
export const spans: Check<SpansParams> = {
  kind: KIND,
  validate(params: unknown, locate: Locator): void {
    const format = checkFormat<SpansParams>(schema, params, locate);
    // A parameter with no format problem is checked further beside the others' problems (a typo in
    // `count` does not hide the query's; docs/cli.md, validate: every problem in one pass).
    const problems: ConfigError[] = [...format.errors];
    if (!format.typed([])) throwConfigErrors(problems);
    const p = format.value;
    const queryAt: Locator = (path, expected, atKey) => locate(['query', ...path], expected, atKey);
    if (format.valid(['query']) && collectConfigErrors(problems, () => validateQuery(p.query, queryAt))) {
      collectConfigErrors(problems, () => validateOwnAttributeKeys(p.query, queryAt));
    }
    const count = (format.valid(['count']) ? p.count : undefined) ?? {};
    if (count.equals !== undefined && (count.min !== undefined || count.max !== undefined)) {
      problems.push(locate(['count', 'equals'], 'count takes equals, or min and/or max, not both', true));
    } else if (count.min !== undefined && count.max !== undefined && count.max < count.min) {
      problems.push(locate(['count', 'max'], `max (${count.max}) is below min (${count.min})`));
    } else if (count.min === 0 && count.max === undefined && count.equals === undefined) {
      // At least 0 spans match every run: the check could only pass (docs/verdicts.md, Check kinds).
      problems.push(
        locate(['count', 'min'], 'min: 0 without max passes on every run (0 or more spans); give max (count: {max: 2} means at most 2), or equals'),
      );
    }
    throwConfigErrors(problems);
  },
  run(params, evidence, id) {
    let query = compiled.get(params.query);
    if (!query) compiled.set(params.query, (query = compileQuery(params.query)));
    // The count is over all matches; the window only limits which spans are listed.
    const { count, spans: matched } = querySpans(evidence.spans, query);
    const ids = matched.slice(0, MAX_EVIDENCE).map((span) => span.span_id);
    const { min, max, equals } = params.count ?? { min: 1 };
    const wanted =
      equals !== undefined
        ? `exactly ${equals}`
        : [min !== undefined ? `at least ${min}` : '', max !== undefined ? `at most ${max}` : ''].filter(Boolean).join(' and ') || 'at least 1';
    const ok = equals !== undefined ? count === equals : count >= (min ?? (max === undefined ? 1 : 0)) && (max === undefined || count <= max);
    const seen = `${plural(count, 'span')} matched`;
    // The noun agrees with the last number said: "at least 1 span", "at least 1 and at most 3 spans".
    const last = equals ?? max ?? min ?? 1;
    return ok
      ? result(KIND, id, 'pass', `${seen} (expected ${wanted})`, ids)
      : result(KIND, id, 'fail', `expected ${wanted} ${nounFor(last, 'span')} matching the query; ${seen}`, ids);
  },
};
