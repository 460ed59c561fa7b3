import { assertFormat, checkFormat, type Locator } from '../config/assert-format.js';
import { collectConfigErrors, throwConfigErrors, type ConfigError } from '../config/errors.js';
import type { PathSegments } from '../config/source.js';
import { objectWords } from '../config/string-means.js';
import { TYPE_WORDS } from '../config/type-words.js';
import { ARGS_MODES, type ArgsMode } from './args/args-mode.js';
import { validateExpectedArgs } from './args/validate-expected.js';
import { validateToolName } from './tool-name.js';

/** Schema fragments the check kinds share (agentcheck's own strict format schemas). */
export const PARAM = {
  tool: { type: 'string', minLength: 1 },
  nested: { type: 'boolean' },
  argsMode: { enum: [...ARGS_MODES] },
  args: { type: 'object' },
  count: { type: 'integer', minimum: 0 },
  text: { type: 'string' },
  // `contains: []` or `contains: ""` holds for every text: a check that could only pass
  // vacuously is refused (docs/verdicts.md, Check kinds).
  texts: { type: ['string', 'array'], minLength: 1, minItems: 1, items: { type: 'string', minLength: 1 } },
  any: {},
} as const;

/** Every params schema the check kinds made, so the build can precompile them (scripts/precompile-schemas.mjs). */
export const PARAMS_SCHEMAS: object[] = [];

/** An object schema with exactly these properties (unknown keys are errors); `annotations` shape its error messages. */
export function objectParams(properties: Record<string, object>, required: string[] = [], annotations: object = {}): object {
  const schema = { type: 'object', additionalProperties: false, properties, required, ...annotations };
  PARAMS_SCHEMAS.push(schema);
  return schema;
}

/**
 * The object schema of a check that also takes a number alone (`max_tokens: 2000`): its type
 * error names both forms (`expected a whole number of tokens (e.g. max_tokens: 2000) or an object
 * {total?, input?, output?}, got string "3"`). `number` says what the number counts, with an example.
 */
export function numberOrObjectParams(number: string, properties: Record<string, object>, required: string[] = []): object {
  return objectParams(properties, required, { [TYPE_WORDS]: `${number} or ${objectWords(properties, required)}` });
}

/** Validates params against a check's schema, throwing a located ConfigError. */
export function checkSchema(schema: object, params: unknown, locate: Locator): void {
  assertFormat(schema, params, locate);
}

/** A rule of a check's params, and the top-level keys it reads: it runs only when they are valid. */
export type ParamsRule<T> = readonly [keys: readonly string[], rule: (params: T) => void];

/**
 * Validates params against a check's schema, then each rule whose keys the format problems left
 * valid, and throws every problem at once: a typo in one key hides no problem of another
 * (docs/cli.md, validate: every problem in one pass).
 */
export function checkParamsInParts<T>(schema: object, params: unknown, locate: Locator, rules: ReadonlyArray<ParamsRule<T>>): void {
  throwConfigErrors(paramsInParts(schema, params, locate, rules).problems);
}

/**
 * checkParamsInParts' problems, and whether a top-level key is well-formed: valid in the format,
 * with every rule reading it holding (what a check with problems still names, Check.partialReferences).
 */
export function paramsInParts<T>(
  schema: object,
  params: unknown,
  locate: Locator,
  rules: ReadonlyArray<ParamsRule<T>>,
): { problems: ConfigError[]; wellFormed: (key: string) => boolean } {
  const format = checkFormat<T>(schema, params, locate);
  const problems: ConfigError[] = [...format.errors];
  const broken = new Set<string>();
  if (format.typed([])) {
    for (const [keys, rule] of rules) {
      if (!keys.every((key) => format.valid([key]))) continue;
      if (!collectConfigErrors(problems, () => rule(format.value))) keys.forEach((key) => broken.add(key));
    }
  }
  return { problems, wellFormed: (key) => format.typed([]) && format.valid([key]) && !broken.has(key) };
}

/** The tool name (or /regex/) and the args map with its matchers, when present. */
export function checkToolAndArgs(params: { tool?: unknown; args?: unknown }, locate: Locator, at: PathSegments = []): void {
  if (params.tool !== undefined) validateToolName(params.tool, [...at, 'tool'], locate);
  if (params.args !== undefined) validateExpectedArgs(params.args, [...at, 'args'], locate);
}

/**
 * `args_mode` says how `args` are compared, so each without the other would be silently ignored:
 * an `args_mode` without `args` compares nothing (a call with any arguments matches), and `args`
 * under `ignore` are not compared. Both are refused (docs/verdicts.md, Argument matching), as
 * tool_returned refuses `result_mode` without `result`; `ignore` without `args` says what happens
 * (no argument is compared), so it stays. `inherited` is the mode the args are compared under
 * when it is not their own `args_mode` (a tool_sequence call under the check's), with where it is set.
 */
export function checkArgsMode(
  params: { args?: unknown; args_mode?: ArgsMode },
  locate: Locator,
  at: PathSegments = [],
  inherited?: { mode: ArgsMode; from: string },
): void {
  if (params.args_mode !== undefined && params.args_mode !== 'ignore' && params.args === undefined) {
    const none = params.args_mode === 'exact' ? '; args: {} with args_mode: exact asks for a call without arguments' : '';
    throw locate(
      [...at, 'args_mode'],
      `args_mode compares the call's arguments with "args": give "args" too (without them a call with any arguments matches${none})`,
    );
  }
  const mode = params.args_mode ?? inherited?.mode;
  if (params.args !== undefined && mode === 'ignore') {
    const where = params.args_mode === undefined && inherited ? ` (${inherited.from})` : '';
    throw locate(
      [...at, 'args'],
      `args are not compared under args_mode: ignore${where}; remove args, or compare them with args_mode superset, subset or exact`,
      true,
    );
  }
}

/** Exactly one of `keys` must be given (e.g. `contains` | `equals`). */
export function exactlyOne(params: Record<string, unknown>, keys: string[], locate: Locator): void {
  const given = keys.filter((key) => params[key] !== undefined);
  if (given.length !== 1) {
    throw locate(
      given.length ? [given[1]] : [],
      `expected exactly one of ${keys.join(' | ')}; got ${given.length ? given.join(' and ') : 'none'}`,
      given.length > 1,
    );
  }
}

/** At least one of `keys` must be given. */
export function atLeastOne(params: Record<string, unknown>, keys: string[], locate: Locator): void {
  if (!keys.some((key) => params[key] !== undefined)) throw locate([], `expected at least one of ${keys.join(', ')}`);
}

/** A string or a list of strings, as a list. */
export function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}
