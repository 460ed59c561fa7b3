import { closestWord } from '../../config/did-you-mean.js';
import { RunError } from '../../config/errors.js';
import { templateNames } from '../revision/template-checks.js';
import { interpolate, stringifyValue, type TemplateLookup } from './interpolate.js';

/** The variables of `env` that are set. */
export function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * `value` with `{{ env.NAME }}` filled from `defined` (header values, an external agent's
 * `external.env`). An unset variable throws a RunError with `code`, naming `where` and the
 * variable, with a "did you mean" for a close name that is set; the environment's other names
 * are never listed, since the error lands in reports.
 */
export function fillEnvValue(value: string, defined: Readonly<Record<string, string>>, where: string, code: string): string {
  const unset = unsetEnvProblem(value, defined);
  if (unset) throw new RunError(code, `${where} ${unset}`);
  return stringifyValue(interpolate(value, envLookup(defined), where));
}

/**
 * Why the `{{ env.NAME }}` templates of `value` cannot be filled from `defined`, as the rest of
 * a sentence naming the value (`needs the environment variable X, which is not set; did you
 * mean "Y"?`), or undefined when every variable they read is set.
 */
export function unsetEnvProblem(value: string, defined: Readonly<Record<string, string>>): string | undefined {
  const unset = [...new Set(envVariablesIn(value))].filter((name) => !Object.hasOwn(defined, name));
  return unset.length ? unsetMessage(unset, Object.keys(defined)) : undefined;
}

/** The environment variables the `{{ env.NAME }}` templates of `value` read, in order. */
export function envVariablesIn(value: string): string[] {
  return templateNames(value)
    .filter((name) => name.startsWith('env.'))
    .map((name) => name.slice('env.'.length));
}

/** A template scope reading `env` from `defined`, and any other name from `others` (an http tool's `args`). */
export function envLookup(defined: Readonly<Record<string, string>>, others: TemplateLookup = () => ({ found: false })): TemplateLookup {
  return (scope) => (scope === 'env' ? { found: true, value: defined } : others(scope));
}

/** Each of `values` filled by fillEnvValue; `where` names an entry (`external.env.TOKEN`). */
export function fillEnvValues(
  values: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  site: { code: string; where: (key: string) => string },
): Record<string, string> {
  const defined = definedEnv(env);
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, fillEnvValue(value, defined, site.where(key), site.code)]));
}

/** `needs the environment variable X, which is not set; did you mean "Y"?` */
function unsetMessage(unset: readonly string[], names: readonly string[]): string {
  const near = unset.flatMap((name) => {
    const close = closestWord(name, names);
    return close === undefined ? [] : [unset.length === 1 ? `"${close}"` : `"${close}" (for ${name})`];
  });
  const several = unset.length > 1;
  return `needs the environment variable${several ? 's' : ''} ${unset.join(', ')}, which ${several ? 'are' : 'is'} not set${near.length ? `; did you mean ${near.join(', ')}?` : ''}`;
}
