import { quoteCapped } from '../../config/cap-text.js';
import { describeValue } from '../../config/describe-value.js';
import type { Locator } from '../../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../../config/errors.js';
import { userSchemaProblem } from '../../config/user-schema-problem.js';
import { didYouMean } from '../../config/did-you-mean.js';
import type { PathSegments } from '../../config/source.js';
import { regexProblem } from '../../spans/query-regex.js';
import { isPlainObject } from './json-value.js';
import { MATCHER_KEYS } from './matchers.js';

/** Deepest expected value we walk; a deeper one is a mistake, not a test. */
const MAX_DEPTH = 64;

/**
 * Validates an expected value (a literal that may hold matchers), throwing a located
 * ConfigError for an unknown `$` key, a matcher object with other keys, an empty `$one_of`,
 * an unsafe `$regex`, a bad `$range` or an invalid `$schema`: every one of them in one pass
 * (ConfigErrors for several), each at its own path (docs/cli.md, validate).
 */
export function validateExpectedValue(value: unknown, at: PathSegments, locate: Locator, depth = 0): void {
  throwConfigErrors(expectedValueProblems(value, at, locate, depth));
}

/** Validates the `args` map of a check: an object of argument name -> expected value, each checked beside the others. */
export function validateExpectedArgs(value: unknown, at: PathSegments, locate: Locator): void {
  if (!isPlainObject(value)) throw locate(at, 'expected an object of argument name -> expected value');
  throwConfigErrors(Object.entries(value).flatMap(([key, item]) => expectedValueProblems(item, [...at, key], locate, 1)));
}

/** The problems of an expected value: each list item, key and matcher on its own. */
function expectedValueProblems(value: unknown, at: PathSegments, locate: Locator, depth: number): ConfigError[] {
  if (depth > MAX_DEPTH) return [locate(at, `expected values may nest at most ${MAX_DEPTH} levels`)];
  if (Array.isArray(value)) return value.flatMap((item, index) => expectedValueProblems(item, [...at, index], locate, depth + 1));
  if (!isPlainObject(value)) return [];
  const keys = Object.keys(value);
  const dollar = keys.filter((key) => key.startsWith('$'));
  if (dollar.length === 0) return keys.flatMap((key) => expectedValueProblems(value[key], [...at, key], locate, depth + 1));
  if (keys.length > 1) return [locate(at, `a matcher has exactly one key (${MATCHER_KEYS.join(', ')}); got ${keys.join(', ')}`)];
  const problems: ConfigError[] = [];
  collectConfigErrors(problems, () => validateMatcher(keys[0], value[keys[0]], [...at, keys[0]], locate, depth));
  return problems;
}

function validateMatcher(key: string, param: unknown, at: PathSegments, locate: Locator, depth: number): void {
  switch (key) {
    case '$one_of':
      if (!Array.isArray(param) || param.length === 0) throw locate(at, '$one_of needs a non-empty list of acceptable values');
      param.forEach((item, index) => validateExpectedValue(item, [...at, index], locate, depth + 1));
      return;
    case '$regex': {
      if (typeof param !== 'string') throw locate(at, '$regex needs a pattern string');
      const problem = regexProblem(param);
      if (problem) throw locate(at, problem);
      return;
    }
    case '$range': {
      if (!Array.isArray(param) || param.length !== 2) throw locate(at, '$range needs [min, max], two numbers');
      // The item itself, as type errors are said elsewhere (a dataset row's hint reads that shape).
      const index = param.findIndex((n) => typeof n !== 'number' || !Number.isFinite(n));
      if (index !== -1) throw locate([...at, index], `expected a number ($range needs [min, max], two numbers), got ${describeValue(param[index])}`);
      if (param[0] > param[1]) throw locate(at, `$range [${param[0]}, ${param[1]}] is empty: min is above max`);
      return;
    }
    case '$schema': {
      const problem = userSchemaProblem(param);
      if (problem) throw locate(at, `$schema is not a valid JSON Schema: ${problem}`);
      return;
    }
    case '$any':
      if (param !== true) throw locate(at, '$any takes true ({$any: true})');
      return;
    default:
      throw locate(at, `unknown matcher ${quoteCapped(key)}; expected one of ${MATCHER_KEYS.join(', ')}${didYouMean(key, MATCHER_KEYS)}`, true);
  }
}
